import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import {
  can as canByRoles,
  displayedRole,
  isFeatureDisabled,
  normaliseResource,
  propertiesSchema,
  whoamiSchema,
  type Action,
  type Properties,
  type Property,
  type Whoami,
} from '@watchdeck/core';
import { ApiError, apiRequest } from './http.ts';
import { FullPageLoader, FullPageError } from '../components/ui/full-page-state.tsx';

/** GET /api/auth/whoami: roles are loaded fresh (no caching), so it is never considered fresh. */
export const whoamiQuery = queryOptions({
  queryKey: ['session', 'whoami'],
  queryFn: async ({ signal }) =>
    whoamiSchema.parse(await apiRequest<unknown>('/auth/whoami', { signal, skipAuthRedirect: true })),
  staleTime: 0,
  // 401 (signed out) and 403 (second factor owed) are answers, not glitches: no retry
  retry: (count, err) => !(err instanceof ApiError && (err.status === 401 || err.status === 403)) && count < 1,
});

/** GET /api/properties: feature flags and other settings. */
export const propertiesQuery = queryOptions({
  queryKey: ['session', 'properties'],
  queryFn: async ({ signal }) => propertiesSchema.parse(await apiRequest<unknown>('/properties', { signal })),
});

/** Database properties first, local (environment) ones override them: those cannot be edited. */
function propertiesToMap(list: readonly Property[]): Properties {
  const out: Properties = {};
  for (const p of list) if (p.source === 'db') out[p.name] = p.value;
  for (const p of list) if (p.source === 'local') out[p.name] = p.value;
  return out;
}

export interface Session {
  whoami: Whoami;
  properties: Properties;
  propertyList: readonly Property[];
  /** Whether the user may do `action` on `resource` (seed 000 section 6). */
  can: (resource: string, action: Action) => boolean;
  /** False when '{feature}.disable' is 'true' (with the settings fallbacks). */
  isFeatureEnabled: (feature: string) => boolean;
  displayedRole: 'admin' | 'editor' | 'viewer';
}

const SessionContext = createContext<Session | null>(null);

function createSession(whoami: Whoami, propertyList: readonly Property[]): Session {
  const properties = propertiesToMap(propertyList);
  return {
    whoami,
    properties,
    propertyList,
    can: (resource, action) => {
      const r = normaliseResource(resource) ?? resource;
      const allowed = whoami.permissions[r];
      return allowed ? allowed.includes(action) : canByRoles(whoami.roles, resource, action);
    },
    isFeatureEnabled: (feature) => !isFeatureDisabled(feature, properties),
    displayedRole: displayedRole(whoami.roles),
  };
}

/** A provider with a fixed session, for tests and embedded previews. */
export function StaticSessionProvider({
  whoami,
  properties = [],
  children,
}: {
  whoami: Whoami;
  properties?: readonly Property[];
  children: ReactNode;
}) {
  const session = useMemo(() => createSession(whoami, properties), [whoami, properties]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/**
 * Loads who the user is and the feature flags; shows a loading view until both are there.
 * A 401 sends the browser to /login with the current path as return_to.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const whoami = useQuery(whoamiQuery);
  const properties = useQuery(propertiesQuery);
  const session = useMemo(
    () => (whoami.data && properties.data ? createSession(whoami.data, properties.data) : null),
    [whoami.data, properties.data],
  );

  const returnTo = encodeURIComponent(`${location.pathname}${location.search}`);
  const unauthorized = [whoami.error, properties.error].some((e) => e instanceof ApiError && e.status === 401);
  if (unauthorized) return <Navigate to={`/login?return_to=${returnTo}`} replace />;
  // Session check (seed 002 section 4): 403 or 422 means signed in with a password but the
  // second factor is still owed, so on to the second-factor login.
  if (whoami.error instanceof ApiError && (whoami.error.status === 403 || whoami.error.status === 422)) {
    return <Navigate to={`/login?aal=aal2&return_to=${returnTo}`} replace />;
  }
  if (session) return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
  const error = whoami.error ?? properties.error;
  if (error) {
    return (
      <FullPageError
        title="Unable to load your session"
        error={error}
        onRetry={() => {
          void whoami.refetch();
          void properties.refetch();
        }}
      />
    );
  }
  return <FullPageLoader label="Loading…" />;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used within a SessionProvider');
  return session;
}

export const useWhoami = (): Whoami => useSession().whoami;

export const useCan = (resource: string, action: Action = 'read'): boolean => useSession().can(resource, action);
