import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { whoamiSchema } from '@watchdeck/core';
import { ApiError, apiRequest } from '#web/lib/http.ts';
import { clearBackend, currentBackend } from '#web/lib/backend.ts';
import { whoamiQuery } from '#web/lib/session.tsx';
import { FullPageError, FullPageLoader } from '#web/components/ui/full-page-state.tsx';
import { OrganizationPicker } from './organization-picker.tsx';
import { ProvisioningWait } from './provisioning-wait.tsx';
import { POLL_MS, SWITCHED_PATH } from '../api/organizations.ts';

/** whoami 404 (still provisioning) or 5xx (starting): the provisioning wait (seed 000 section 8). */
const provisioning = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status >= 500);

/**
 * Hosted mode's entry (seed 000 section 4), around the session: with an organisation chosen the
 * app runs against its backend once whoami answers there (404 or 5xx: the provisioning wait,
 * polled; another error: an error page); signed in without one: the organisation picker. Own
 * identity mode and AUTH=none pass straight through (their whoami has no `hosted`).
 */
export function HostedGate({ children }: { children: ReactNode }) {
  const backend = currentBackend();
  const { pathname } = useLocation();
  // No organisation chosen: the session loader's own whoami (one request, shared), and nothing
  // waits for it here: only its `hosted` turns the app into the picker. Own identity mode and
  // AUTH=none load exactly as before.
  const root = useQuery({ ...whoamiQuery, enabled: !backend });
  const whoami = useQuery({
    queryKey: ['organizations', 'whoami', backend?.slug ?? null],
    queryFn: async ({ signal }) =>
      whoamiSchema.parse(await apiRequest<unknown>('/auth/whoami', { signal, skipAuthRedirect: true })),
    enabled: !!backend,
    retry: false,
    refetchInterval: (q) => (provisioning(q.state.error) ? POLL_MS : false),
  });

  if (!backend) return root.data?.hosted ? <OrganizationPicker /> : <>{children}</>;
  if (whoami.isPending) return <FullPageLoader />;
  if (whoami.error) {
    if (whoami.error instanceof ApiError && whoami.error.status === 401) {
      // the organisation's token is no longer valid: this origin decides again
      clearBackend();
      window.location.assign('/');
      return <FullPageLoader />;
    }
    if (provisioning(whoami.error)) return <ProvisioningWait organization={backend.slug} />;
    return (
      <FullPageError
        title="Unable to open the organisation"
        error={whoami.error}
        onRetry={() => void whoami.refetch()}
      />
    );
  }
  if (pathname === SWITCHED_PATH) return <Navigate to="/" replace />;
  return <>{children}</>;
}
