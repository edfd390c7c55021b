import { Outlet } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { Unauthorized } from '../components/auth/unauthorized.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Read access is needed for routes; a disabled feature's routes don't exist. */
export function RouteGuard({ resource, features = [] }: { resource?: string; features?: readonly string[] }) {
  const { can, isFeatureEnabled } = useSession();
  if (!features.every((f) => isFeatureEnabled(f))) return <NotFoundPage />;
  if (resource && !can(resource, 'read')) return <Unauthorized />;
  return <Outlet />;
}
