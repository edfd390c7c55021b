import type { ReactNode } from 'react';
import type { Action } from '@watchdeck/core';
import { useSession } from '#web/lib/session.tsx';
import { Unauthorized } from './unauthorized.tsx';

export interface AccessGuardProps {
  /** Every listed resource must allow the action. */
  resource: string | readonly string[];
  action?: Action;
  /** Show the Unauthorized screen instead of nothing. */
  showUnauthorized?: boolean;
  /** Rendered instead when access is denied (takes precedence over showUnauthorized). */
  fallback?: ReactNode;
  children: ReactNode;
}

/** Renders its children only when the user may do `action` on the resource(s). */
export function AccessGuard({ resource, action = 'read', showUnauthorized, fallback, children }: AccessGuardProps) {
  const { can } = useSession();
  const resources = typeof resource === 'string' ? [resource] : resource;
  if (resources.every((r) => can(r, action))) return <>{children}</>;
  if (fallback !== undefined) return <>{fallback}</>;
  return showUnauthorized ? <Unauthorized /> : null;
}

/** Renders its children only when the feature is not disabled by a '{feature}.disable' flag. */
export function FeatureGuard({
  feature,
  fallback = null,
  children,
}: {
  feature: string;
  fallback?: ReactNode;
  children: ReactNode;
}) {
  const { isFeatureEnabled } = useSession();
  return <>{isFeatureEnabled(feature) ? children : fallback}</>;
}
