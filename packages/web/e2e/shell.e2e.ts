// The console shell against a real server: /api/auth/whoami and /api/properties answer with the
// contract in packages/core/src/api-contract.ts (the test server runs with AUTH=none or signs in).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

describe('console shell', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const sidebar = () => page.getByTestId('sidebar');

  it('shows the shell with the navigation of the screens whose engine exists', async () => {
    await page.goto(`${baseUrl()}/health`);
    await poll(() => sidebar().getAttribute('data-collapsed')).toBe('false');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => nav.getByRole('link', { name: 'Health' }).count()).toBe(1);
    await poll(() => page.getByRole('button', { name: 'Refresh' }).count()).toBe(1);
    await poll(() => nav.getByRole('link', { name: 'Catalog' }).count()).toBe(1);
    await poll(() => nav.getByRole('link', { name: 'Playbooks' }).count()).toBe(1);
    await poll(() => nav.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/topology');
    await poll(() => nav.getByRole('link', { name: 'Logs' }).count()).toBe(1);
    if ((await nav.getByRole('button', { name: 'Settings' }).getAttribute('aria-expanded')) === 'false')
      await nav.getByRole('button', { name: 'Settings' }).click();
    await poll(() => nav.getByRole('link', { name: 'Canaries' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'Config Scrapers' }).getAttribute('href')).toBe('/catalog/scrapers');
    expect(await nav.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe('/notifications');
    expect(await nav.getByRole('link', { name: 'Topologies' }).getAttribute('href')).toBe('/settings/topologies');
    expect(await nav.getByRole('link', { name: 'Log Backends' }).getAttribute('href')).toBe(
      '/settings/logging_backends',
    );
    expect(await nav.getByRole('link', { name: 'Agents' }).getAttribute('href')).toBe('/settings/agents');
    await screenshot(page, 'shell');
  });

  it('keeps the sidebar collapsed across a reload', async () => {
    await page.goto(`${baseUrl()}/health`);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await poll(() => sidebar().getAttribute('data-collapsed')).toBe('true');
    await page.reload();
    await poll(() => sidebar().getAttribute('data-collapsed')).toBe('true');
    await screenshot(page, 'shell-collapsed');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await poll(() => sidebar().getAttribute('data-collapsed')).toBe('false');
    await page.reload();
    await poll(() => sidebar().getAttribute('data-collapsed')).toBe('false');
  });

  it('collapses the sidebar by itself under 1024px', async () => {
    const narrow = await browser.newPage({ viewport: { width: 900, height: 700 } });
    try {
      await narrow.goto(`${baseUrl()}/health`);
      await poll(() => narrow.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
      await narrow.setViewportSize({ width: 1280, height: 700 });
      await poll(() => narrow.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('false');
      await narrow.setViewportSize({ width: 900, height: 700 });
      await poll(() => narrow.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    } finally {
      await narrow.close();
    }
  });

  it('shows the backend and frontend versions in the user menu', async () => {
    await page.goto(`${baseUrl()}/health`);
    await page.getByRole('button', { name: 'User menu' }).click();
    await poll(() => page.getByTestId('frontend-version').textContent()).toBe('1.0.801');
    await poll(() => page.getByTestId('backend-version').textContent()).toMatch(/^\d+\.\d+\.\d+/);
    await screenshot(page, 'user-menu');
    await page.keyboard.press('Escape');
  });

  it('opens the kubeconfig modal from the user menu and closes it with Escape', async () => {
    await page.goto(`${baseUrl()}/health`);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download and install kubeconfig' });
    await poll(() => dialog.count()).toBe(1);
    await poll(() => dialog.getByRole('link', { name: 'Download kubeconfig' }).getAttribute('href')).toBe(
      '/api/kubeconfig',
    );
    await screenshot(page, 'kubeconfig-modal');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
  });

  it('shows the bad-session error page', async () => {
    await page.goto(`${baseUrl()}/error?error_code=BAD_SESSION`);
    await poll(() =>
      page
        .getByText(
          'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
        )
        .count(),
    ).toBe(1);
    await poll(() => page.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe('/');
    await page.goto(`${baseUrl()}/error?error_code=SOMETHING`);
    await poll(() => page.getByText('Unknown error').count()).toBe(1);
  });

  it('goes home from the account pages when sign-in is off (AUTH=none)', async () => {
    const auth = (await (await fetch(`${baseUrl()}/api/auth/whoami`)).json()) as { authMode: string };
    if (auth.authMode !== 'none') return; // E2E_AUTH=kratos: account.e2e.ts covers the pages
    for (const path of ['/login', '/login?return_to=%2Fincidents', '/recovery', '/registration']) {
      await page.goto(`${baseUrl()}${path}`);
      await poll(() => new URL(page.url()).pathname, 15_000, path).toBe('/topology');
      await poll(() => sidebar().count(), 15_000, path).toBe(1);
      expect(await page.getByText('Not Found').count(), path).toBe(0);
    }
  });

  it('shows the not-found page inside the shell for an unknown route', async () => {
    await page.goto(`${baseUrl()}/definitely/not/a/screen`);
    await poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    await poll(() => sidebar().count()).toBe(1);
  });

  it('redirects / to /topology (seed 002 section 2.1) and /configs to /catalog', async () => {
    await page.goto(`${baseUrl()}/`);
    await page.waitForURL('**/topology');
    await page.goto(`${baseUrl()}/configs`);
    await page.waitForURL('**/catalog');
  });
});
