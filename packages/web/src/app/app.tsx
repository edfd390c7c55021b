import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { isPublicPath, loginUrl, setUnauthorizedHandler } from '../lib/http.ts';
import { propertiesQuery, whoamiQuery } from '../lib/session.tsx';
import { RouteRegistryProvider } from '../lib/route-registry.tsx';
import { TOAST_DURATION_MS } from '../lib/toast.ts';
import { isRegisteredPath } from './routes.ts';
import { router } from './router.tsx';

// networkMode 'always': offline, a call fails at once with 'No internet connection. Please try
// again.' (lib/http.ts) instead of waiting, paused, to fire when the network returns (seed 000
// section 8): a Run Now clicked offline must not run minutes later.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

// The session's two calls start with the app: the data router renders nothing (so no
// SessionProvider asks for them) until the first screen's lazy code has loaded, and waiting for
// that made them the second step of a waterfall (bench: /topology with 500 root cards). The
// session loader finds them in flight or answered; pages outside it (sign-in, the public
// topology view) don't need them.
const { pathname: startPath } = window.location;
if (!isPublicPath(startPath) && !startPath.startsWith('/view/')) {
  void queryClient.prefetchQuery(whoamiQuery);
  void queryClient.prefetchQuery(propertiesQuery);
}

// A 401 from any client sends the browser to sign in, coming back here afterwards.
setUnauthorizedHandler(() => {
  const { pathname, search } = router.state.location;
  if (!isPublicPath(pathname)) void router.navigate(loginUrl(`${pathname}${search}`), { replace: true });
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      {/* links to screens this build does not have read as text (lib/route-registry.tsx) */}
      <RouteRegistryProvider exists={isRegisteredPath}>
        <RouterProvider router={router} />
      </RouteRegistryProvider>
      {/* a modal (the check drawer, a dialog) turns pointer events off outside itself; toasts
          stay clickable so a toast's link (e.g. to a new incident) works while one is open */}
      <Toaster
        position="top-right"
        richColors
        closeButton
        duration={TOAST_DURATION_MS}
        style={{ pointerEvents: 'auto' }}
      />
    </QueryClientProvider>
  );
}
