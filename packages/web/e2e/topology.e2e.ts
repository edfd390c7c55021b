import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

describe('console shell and topology', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('redirects / to /topology and lists the demo components from the database', async () => {
    await page.goto(`${baseUrl()}/`);
    await page.waitForURL('**/topology');
    await poll(() => page.getByTestId('component-card').count()).toBeGreaterThan(0);
    await poll(() => page.getByTestId('version').textContent()).toMatch(/Version \d+\.\d+\.\d+/);
    await screenshot(page, 'topology');
  });

  it('serves deep links through the SPA and shows a not-found page for unknown routes', async () => {
    await page.goto(`${baseUrl()}/no/such/page`);
    await poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
  });
});
