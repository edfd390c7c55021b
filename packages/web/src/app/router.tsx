import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { SessionProvider, useSession } from '../lib/session.tsx';
import { KnownRoutesProvider } from '../lib/known-routes.tsx';
import { Shell } from './shell/shell.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { ErrorPage } from './errors/error-page.tsx';
import { FlowErrorPage } from './errors/flow-error-page.tsx';
import { RenderError } from './errors/render-error.tsx';
import { RouteGuard } from './route-guard.tsx';
import { FEATURE_ROUTES, isRegisteredPath } from './routes.ts';
import { homePath } from './navigation.ts';
import { FullPageLoader } from '../components/ui/full-page-state.tsx';
import { HostedGate } from '../features/organizations/components/hosted-gate.tsx';

/**
 * Account pages are public (no session needed), so they sit outside the session and the shell:
 * a signed-out visitor sent to /login isn't bounced back. /profile-settings is in FEATURE_ROUTES.
 */
const ACCOUNT_ROUTES: RouteObject[] = [
  {
    path: 'login',
    lazy: async () => ({ Component: (await import('../features/account/routes/login-page.tsx')).LoginPage }),
  },
  {
    path: 'registration',
    lazy: async () => ({
      Component: (await import('../features/account/routes/registration-page.tsx')).RegistrationPage,
    }),
  },
  {
    path: 'recovery',
    lazy: async () => ({ Component: (await import('../features/account/routes/recovery-page.tsx')).RecoveryPage }),
  },
  {
    path: 'verification',
    lazy: async () => ({
      Component: (await import('../features/account/routes/verification-page.tsx')).VerificationPage,
    }),
  },
];

/** Every screen learns from the route table which paths lead somewhere (lib/known-routes.tsx). */
function KnownRoutes() {
  return (
    <KnownRoutesProvider isKnown={isRegisteredPath}>
      <Outlet />
    </KnownRoutesProvider>
  );
}

/** / opens the first screen of this user's navigation (navigation.ts homePath). */
function HomeRedirect() {
  const session = useSession();
  return <Navigate to={homePath({ isRegistered: isRegisteredPath, session })} replace />;
}

/** Hosted mode picks the organisation (and its backend) before the session loads; otherwise a pass-through. */
function SessionLayout() {
  return (
    <HostedGate>
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    </HostedGate>
  );
}

export const routes: RouteObject[] = [
  {
    element: <KnownRoutes />,
    errorElement: <RenderError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      { path: 'error', element: <ErrorPage /> },
      { path: 'error/:id', element: <FlowErrorPage /> },
      ...ACCOUNT_ROUTES,
      // The public topology view is shown without waiting for the feature flags (seed 002
      // section 2.1): outside the session loader and the shell.
      {
        path: 'view/topology/:id',
        lazy: async () => ({
          Component: (await import('../features/topology/routes/public-topology-page.tsx')).PublicTopologyPage,
        }),
      },
      {
        element: <SessionLayout />,
        children: [
          {
            element: <Shell />,
            children: [
              {
                errorElement: <RenderError />,
                children: [
                  { index: true, element: <HomeRedirect /> },
                  { path: 'configs', element: <Navigate to="/catalog" replace /> },
                  ...FEATURE_ROUTES.map((r): RouteObject => ({
                    element: <RouteGuard resource={r.resource} features={r.features} />,
                    children: [{ path: r.path, lazy: async () => ({ Component: await r.load() }) }],
                  })),
                  { path: '*', element: <NotFoundPage /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
