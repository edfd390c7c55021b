// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Property } from '@watchdeck/core';
import { Sidebar } from '../src/app/shell/sidebar.tsx';
import { ENGINES_NOT_BUILT, SETTINGS_ITEMS, type Engine } from '../src/app/navigation.ts';
import { isRegisteredPath } from '../src/app/routes.ts';
import { routes } from '../src/app/router.tsx';
import { AccessGuard, FeatureGuard } from '../src/components/auth/index.ts';
import { RenderError } from '../src/app/errors/render-error.tsx';
import { TopBar } from '../src/app/shell/top-bar.tsx';
import { KnownRoutesProvider } from '../src/lib/known-routes.tsx';
import { JobHistoryTable, type JobHistoryRow } from '../src/components/job-history/index.ts';
import { renderWithProviders, whoamiFor } from './helpers.tsx';

const flag = (name: string, value = 'true'): Property => ({ name, value, source: 'db' });
const allRegistered = () => true;

const allBuilt: ReadonlySet<Engine> = new Set();

function renderSidebar(
  opts: { roles?: string[]; properties?: Property[]; collapsed?: boolean; path?: string; engines?: 'built' } = {},
) {
  return renderWithProviders(
    <Sidebar
      collapsed={opts.collapsed ?? false}
      onToggle={() => {}}
      isRegistered={allRegistered}
      enginesNotBuilt={opts.engines === 'built' ? allBuilt : ENGINES_NOT_BUILT}
    />,
    {
      roles: opts.roles ?? ['admin'],
      properties: opts.properties,
      path: opts.path,
    },
  );
}

const mainLabels = () =>
  within(screen.getByRole('navigation', { name: 'Main navigation' }))
    .getAllByRole('listitem')
    .filter((li) => li.parentElement?.parentElement?.tagName === 'NAV')
    .map((li) => li.textContent);

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn().mockResolvedValue(new Response(JSON.stringify({ Version: '9.9.9' }), { status: 200 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('sidebar', () => {
  it('shows the main navigation in order and Settings sorted by name for an admin', () => {
    renderSidebar({ engines: 'built' });
    expect(mainLabels()).toEqual(['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks', 'Settings']);
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/topology');
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const settings = within(screen.getByRole('list', { name: 'Settings' }))
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(settings).toEqual([...settings].sort((a, b) => a!.localeCompare(b!)));
    for (const label of [
      'Connections',
      'Jobs History',
      'Feature Flags',
      'Log Backends',
      'Event Queue',
      'Agents',
      'Integrations',
      'Users',
    ]) {
      expect(settings).toContain(label);
    }
  });

  it("shows every engine's screens and their settings: none is left unbuilt", () => {
    renderSidebar();
    expect(mainLabels()).toEqual(['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks', 'Settings']);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const settings = within(screen.getByRole('list', { name: 'Settings' }))
      .getAllByRole('link')
      .map((a) => a.textContent);
    for (const label of [
      'Topologies',
      'Log Backends',
      'Agents',
      'Canaries',
      'Config Scrapers',
      'Connections',
      'Teams',
      'Incident Rules',
      'Jobs History',
      'Notifications',
      'Users',
    ]) {
      expect(settings).toContain(label);
    }
    expect([...ENGINES_NOT_BUILT]).toEqual([]);
  });

  it('hides Settings from viewers (and commanders, whose displayed role is viewer)', () => {
    renderSidebar({ roles: ['viewer'], engines: 'built' });
    expect(mainLabels()).toEqual(['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks']);
    cleanup();
    renderSidebar({ roles: [] });
    expect(mainLabels()).not.toContain('Settings');
    cleanup();
    renderSidebar({ roles: ['commander'] });
    expect(mainLabels()).not.toContain('Settings');
  });

  it('hides items whose resource the user cannot read', () => {
    renderSidebar({ roles: ['editor'] });
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const settings = within(screen.getByRole('list', { name: 'Settings' }))
      .getAllByRole('link')
      .map((a) => a.textContent);
    // editors read everything, so only flags would hide items
    expect(settings).toContain('Connections');
    expect(settings).toContain('Users');
  });

  it('hides items whose feature is disabled, with the settings fallbacks', () => {
    renderSidebar({
      engines: 'built',
      properties: [
        flag('incidents.disable'),
        flag('logs.disable'),
        flag('health.disable'),
        flag('settings.users.disable'),
        flag('playbooks.disable', 'false'),
      ],
    });
    expect(mainLabels()).toEqual(['Dashboard', 'Catalog', 'Playbooks', 'Settings']);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const settings = within(screen.getByRole('list', { name: 'Settings' }))
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(settings).not.toContain('Users');
    expect(settings).not.toContain('Log Backends'); // logs disabled
    expect(settings).not.toContain('Incident Rules'); // incidents disabled
    expect(settings).not.toContain('Jobs History'); // settings.job_history falls back to health
    expect(settings).not.toContain('Canaries'); // settings.health falls back to health
    expect(settings).toContain('Connections');
  });

  it('hides a permission-gated item from a role without read access', () => {
    // Users needs identities read, which only admins and editors have; build a custom permission map.
    const whoami = { ...whoamiFor(['editor']), permissions: { ...whoamiFor(['editor']).permissions, identities: [] } };
    renderWithProviders(
      <Sidebar collapsed={false} onToggle={() => {}} isRegistered={allRegistered} enginesNotBuilt={allBuilt} />,
      { whoami },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const settings = within(screen.getByRole('list', { name: 'Settings' }))
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(settings).not.toContain('Users');
    expect(settings).toContain('Agents');
  });

  it('shows only items whose route is registered', () => {
    renderWithProviders(<Sidebar collapsed={false} onToggle={() => {}} enginesNotBuilt={allBuilt} />, {
      roles: ['admin'],
    });
    const labels = mainLabels();
    expect(labels).toContain('Dashboard');
    for (const label of labels) {
      if (label === 'Settings') continue;
      const link = screen.getByRole('link', { name: label! });
      expect(isRegisteredPath(link.getAttribute('href')!)).toBe(true);
    }
    expect(SETTINGS_ITEMS.length).toBeGreaterThan(10);
  });

  it('shows icons with accessible names when collapsed', () => {
    renderSidebar({ collapsed: true });
    expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    expect(screen.getByRole('link', { name: 'Health' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeTruthy();
  });
});

describe('links to screens that do not exist yet', () => {
  const job = (id: string, resource_type: string, resource_name: string): JobHistoryRow => ({
    id,
    name: 'Run',
    resource_id: `${id}-resource`,
    resource_type,
    resource_name,
    agent: null,
    status: 'SUCCESS',
    time_start: '2026-01-01T00:00:00Z',
    duration_millis: 10,
    success_count: 1,
    error_count: 0,
    created_at: '2026-01-01T00:00:00Z',
    details: null,
  });

  it('links a job resource only when its screen is registered (and the bell, /notifications being one)', () => {
    renderWithProviders(
      <KnownRoutesProvider isKnown={isRegisteredPath}>
        <TopBar />
        <JobHistoryTable
          rows={[job('a', 'agent', 'edge agent'), job('c', 'canary', 'shop canary'), job('u', 'unknown', 'old thing')]}
          total={3}
          pageIndex={0}
          pageSize={50}
          onPaginationChange={() => {}}
          sorting={[]}
          onSortingChange={() => {}}
        />
      </KnownRoutesProvider>,
    );
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe('/notifications');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    // the agents screen exists (features/agents); a resource with no screen stays text
    expect(screen.getByRole('link', { name: 'edge agent' }).getAttribute('href')).toBe(
      '/settings/agents?id=a-resource',
    );
    expect(screen.queryByRole('link', { name: 'old thing' })).toBeNull();
    expect(screen.getByText('old thing')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'shop canary' }).getAttribute('href')).toBe(
      '/settings/canaries/c-resource',
    );
  });

  it('shows the bell once /notifications is a screen', () => {
    renderWithProviders(
      <KnownRoutesProvider isKnown={(p) => p === '/notifications'}>
        <TopBar />
      </KnownRoutesProvider>,
    );
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe('/notifications');
  });
});

describe('guards', () => {
  it('AccessGuard renders nothing, or the Unauthorized screen when asked', () => {
    renderWithProviders(
      <div>
        <AccessGuard resource="canaries" action="write">
          <button>Add check</button>
        </AccessGuard>
        <AccessGuard resource={['incident', 'evidences']} action="write">
          <button>Attach as Evidence</button>
        </AccessGuard>
        <AccessGuard resource="identities" showUnauthorized>
          <p>users page</p>
        </AccessGuard>
      </div>,
      { roles: ['responder'] },
    );
    expect(screen.queryByText('Add check')).toBeNull();
    expect(screen.getByText('Attach as Evidence')).toBeTruthy();
    expect(screen.queryByText('users page')).toBeNull();
    expect(screen.getByRole('heading').textContent).toBe(
      'Unauthorized — You do not have permission to access this page',
    );
  });

  it('FeatureGuard hides disabled features', () => {
    renderWithProviders(
      <div>
        <FeatureGuard feature="incidents">
          <p>incidents</p>
        </FeatureGuard>
        <FeatureGuard feature="logs">
          <p>logs</p>
        </FeatureGuard>
      </div>,
      { properties: [flag('incidents.disable')] },
    );
    expect(screen.queryByText('incidents')).toBeNull();
    expect(screen.getByText('logs')).toBeTruthy();
  });
});

describe('render errors', () => {
  it("shows 'Sorry.. there was an error' when a screen throws", () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): never {
      throw new Error('kaboom');
    }
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <RenderError /> }]);
    render(<RouterProvider router={router} />);
    expect(screen.getByText('Sorry.. there was an error')).toBeTruthy();
    expect(screen.getByText('kaboom')).toBeTruthy();
    quiet.mockRestore();
  });
});

describe('routes', () => {
  function renderApp(path: string, fetchImpl: (url: string) => Response | Promise<Response>) {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => Promise.resolve(fetchImpl(String(url)))),
    );
    const router = createMemoryRouter(routes, { initialEntries: [path] });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return router;
  }
  const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  const api =
    (whoamiStatus = 200) =>
    (url: string) => {
      if (url.endsWith('/api/auth/whoami')) {
        return whoamiStatus === 200
          ? ok(whoamiFor(['admin'], 'none'))
          : new Response('{"error":"Unauthorized"}', { status: whoamiStatus });
      }
      if (url.endsWith('/api/properties')) return ok([]);
      if (url.endsWith('/api/about')) return ok({ Version: '1.2.3' });
      return new Response('{"error":"Not Found"}', { status: 404 });
    };

  it("shows 'Bad Session...' for error_code BAD_SESSION and 'Unknown error' otherwise, with Go back", async () => {
    renderApp('/error?error_code=BAD_SESSION', api());
    expect(
      await screen.findByText(
        'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe('/');
    cleanup();
    renderApp('/error?error_code=OTHER', api());
    expect(await screen.findByText('Unknown error')).toBeTruthy();
  });

  it('redirects the flow-error page home on 404, 403 and 410, and shows other errors', async () => {
    for (const status of [404, 403, 410]) {
      const router = renderApp('/error/abc', (url) =>
        url.includes('/api/auth/errors/') ? new Response('{}', { status }) : api()(url),
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/topology'));
      cleanup();
    }
    renderApp('/error/abc', (url) =>
      url.includes('/api/auth/errors/abc')
        ? new Response(JSON.stringify({ error: { code: 500, message: 'flow broke' } }), { status: 500 })
        : api()(url),
    );
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    expect(screen.getByTestId('flow-error-body').textContent).toContain('flow broke');
    expect(screen.getByRole('link', { name: 'Go back' })).toBeTruthy();
  });

  it('shows a stored flow error (a used invitation link) as the catalogue message with a way forward, not JSON', async () => {
    const stored = {
      id: 'abc',
      error: {
        id: 'self_service_flow_expired',
        code: 410,
        status: 'Gone',
        message: 'Your interaction expired, please fill out the form again.',
        reason: 'The recovery link was already used or has expired.',
      },
      message: 'Your interaction expired, please fill out the form again.',
      redirect_browser_to: '/recovery',
      created_at: '2026-01-01T00:00:00Z',
    };
    renderApp('/error/abc', (url) => (url.includes('/api/auth/errors/abc') ? ok(stored) : api()(url)));
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeTruthy();
    expect(screen.getByText('The recovery link was already used or has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Recover account' }).getAttribute('href')).toBe('/recovery');
    expect(screen.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe('/');
    expect(document.body.textContent).not.toMatch(/[{}]|self_service_flow_expired|created_at/);
    cleanup();
    // an unknown link (not_found) is an interaction to start again too
    renderApp('/error/abc', (url) =>
      url.includes('/api/auth/errors/abc')
        ? ok({
            ...stored,
            error: {
              ...stored.error,
              id: 'not_found',
              code: 404,
              message: 'The requested resource could not be found.',
              reason: 'The recovery link is not valid.',
            },
          })
        : api()(url),
    );
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeTruthy();
    expect(screen.getByText('The recovery link is not valid.')).toBeTruthy();
  });

  it('sends a 401 from whoami to /login with the return path', async () => {
    const router = renderApp('/topology?x=1', api(401));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/topology?x=1');
  });

  it('shows a loading view until the session and flags load, then the shell; unknown routes are not found', async () => {
    const router = renderApp('/no/such/page', api());
    expect(screen.getByRole('status').textContent).toContain('Loading');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByTestId('sidebar')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/no/such/page');
  });

  it('redirects / to /topology (seed 002 section 2.1) and /configs to /catalog', async () => {
    const router = renderApp('/', api());
    await waitFor(() => expect(router.state.location.pathname).toBe('/topology'));
    cleanup();
    const r2 = renderApp('/configs', api());
    await waitFor(() => expect(r2.state.location.pathname).toBe('/catalog'));
  });
});
