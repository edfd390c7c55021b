// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { permissionsOf } from '@watchdeck/core';

/**
 * Hosted mode's gate (seed 000 sections 4, 7, 8): with an organisation chosen, whoami and every
 * call go to its backend with the bearer token; whoami 404 or 5xx is the provisioning wait,
 * another error an error page; without one, a root whoami that says hosted shows the picker.
 * lib/backend.ts reads the choice once at load, so each case loads the modules afresh.
 */
const WAIT = 'Please wait, instance provisioning in-progress ...';
const whoami = (extra: object = {}) => ({
  user: { id: 'u1', name: 'Ada', email: 'ada@example.com', avatar: null },
  roles: ['admin'],
  permissions: permissionsOf(['admin']),
  authMode: 'kratos',
  ...extra,
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function renderGate(opts: { backend?: boolean; answer: (url: string, init?: RequestInit) => Response }) {
  vi.resetModules();
  localStorage.clear();
  if (opts.backend)
    localStorage.setItem(
      'watchdeck.organization',
      JSON.stringify({ slug: 'acme', url: 'http://backend.test/org/acme', token: 'wdpat_x' }),
    );
  const calls: { url: string; auth?: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, auth: (init?.headers as Record<string, string> | undefined)?.Authorization });
      return opts.answer(url, init);
    }),
  );
  const { HostedGate } = await import('../src/features/organizations/components/hosted-gate.tsx');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <HostedGate>{<p>the app</p>}</HostedGate> }], {
    initialEntries: ['/'],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('hosted mode gate', () => {
  it('asks the organisation’s backend with the bearer token and opens the app when it answers', async () => {
    const calls = await renderGate({ backend: true, answer: () => json(whoami({ organization: 'acme' })) });
    expect(await screen.findByText('the app')).toBeTruthy();
    expect(calls[0]).toEqual({ url: 'http://backend.test/org/acme/api/auth/whoami', auth: 'Bearer wdpat_x' });
  });

  it('shows the provisioning wait on whoami 404 and 5xx', async () => {
    await renderGate({ backend: true, answer: () => json({ message: 'not found' }, 404) });
    expect(await screen.findByText(WAIT)).toBeTruthy();
    cleanup();
    await renderGate({ backend: true, answer: () => json({ message: 'starting' }, 503) });
    expect(await screen.findByText(WAIT)).toBeTruthy();
  });

  it('shows an error page with the message on another whoami error', async () => {
    await renderGate({ backend: true, answer: () => json({ message: 'I am a teapot' }, 418) });
    expect(await screen.findByText('I am a teapot')).toBeTruthy();
    expect(screen.queryByText(WAIT)).toBeNull();
  });

  it('shows the organisation picker when signed in without an organisation in hosted mode', async () => {
    await renderGate({
      answer: (url) => (url.endsWith('/api/organizations') ? json([]) : json(whoami({ hosted: true }))),
    });
    expect(await screen.findByRole('heading', { name: 'Choose an organisation' })).toBeTruthy();
  });

  it('keeps the account flows and sign-out on this origin, with an organisation chosen', async () => {
    vi.resetModules();
    localStorage.setItem(
      'watchdeck.organization',
      JSON.stringify({ slug: 'acme', url: 'http://backend.test/org/acme', token: 'wdpat_x' }),
    );
    const { routed } = await import('../src/lib/backend.ts');
    expect(routed('/api/auth/self-service/settings/browser')).toEqual({
      url: '/api/auth/self-service/settings/browser',
      headers: {},
    });
    expect(routed('/api/auth/logout')).toEqual({ url: '/api/auth/logout', headers: {} });
    expect(routed('/api/auth/errors/e1').url).toBe('/api/auth/errors/e1');
    expect(routed('/api/auth/whoami')).toEqual({
      url: 'http://backend.test/org/acme/api/auth/whoami',
      headers: { Authorization: 'Bearer wdpat_x' },
    });
    expect(routed('/api/auth/tokens').url).toBe('http://backend.test/org/acme/api/auth/tokens');
  });

  it('passes straight through in own identity mode', async () => {
    await renderGate({ answer: () => json(whoami()) });
    expect(await screen.findByText('the app')).toBeTruthy();
  });
});
