import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { permissionsOf, type Property, type Whoami } from '@watchdeck/core';
import { StaticSessionProvider } from '../src/lib/session.tsx';
import { TooltipProvider } from '../src/components/ui/tooltip.tsx';

export function whoamiFor(roles: string[], authMode: Whoami['authMode'] = 'kratos'): Whoami {
  return {
    user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', avatar: null },
    roles,
    permissions: permissionsOf(roles),
    authMode,
  };
}

export interface RenderOptions {
  path?: string;
  roles?: string[];
  properties?: Property[];
  whoami?: Whoami;
  /** Extra routes next to the one rendering the element (e.g. link targets). */
  routePath?: string;
}

/** Renders inside a memory router, a query client and a fixed session. Returns the router too. */
export function renderWithProviders(ui: ReactElement, opts: RenderOptions = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const whoami = opts.whoami ?? whoamiFor(opts.roles ?? ['admin']);
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <StaticSessionProvider whoami={whoami} properties={opts.properties ?? []}>
        <TooltipProvider>{node}</TooltipProvider>
      </StaticSessionProvider>
    </QueryClientProvider>
  );
  const router = createMemoryRouter([{ path: opts.routePath ?? '*', element: wrap(ui) }], {
    initialEntries: [opts.path ?? '/'],
  });
  const result = render(<RouterProvider router={router} />);
  return { ...result, router, queryClient };
}

/** The current search parameters of a memory router. */
export const searchOf = (router: { state: { location: { search: string } } }) =>
  new URLSearchParams(router.state.location.search);
