import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

// The topology engine does not exist yet, so its Dashboard is out of the navigation and / is not
// the topology page (the seed's home): it lands on /health, the first screen of the nav. The
// page's code stays, reachable by its URL only, until the topology issue brings the engine.
describe('topology while it has no engine', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends / to /health and leaves the Dashboard out of the sidebar', async () => {
    await page.goto(`${baseUrl()}/`);
    await page.waitForURL('**/health');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => nav.getByRole('link', { name: 'Health' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    await poll(() => page.getByTestId('version').textContent()).toMatch(/Version \d+\.\d+\.\d+/);
    // the logo goes home too
    await page.getByRole('link', { name: 'Watchdeck home' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/health');
    await screenshot(page, 'home-is-health');
  });

  it('still answers /topology by its URL, with nothing in the nav pointing there', async () => {
    await page.goto(`${baseUrl()}/topology`);
    await poll(() => page.getByRole('heading', { name: 'Topology' }).count()).toBe(1);
    expect(await page.locator('a[href^="/topology"]').count()).toBe(0);
  });

  it('serves deep links through the SPA and shows a not-found page for unknown routes', async () => {
    await page.goto(`${baseUrl()}/no/such/page`);
    await poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
  });
});
