import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

// /api/openapi: the server's readable page of its OpenAPI document (server/src/metrics/openapi.ts),
// for people who write scripts against the console.
describe('API documentation page', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists the routes with their parameters and links the JSON document', async () => {
    await page.goto(`${baseUrl()}/api/openapi`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/API \d+\.\d+\.\d+/);
    // a route with a path parameter, and one with a body
    const run = page.locator('section', { hasText: '/api/canary/run/check/{id}' });
    await poll(() => run.count()).toBe(1);
    expect(await run.getByRole('cell', { name: 'id', exact: true }).count()).toBe(1);
    const invite = page.locator('section', { hasText: '/api/auth/invite_user' });
    await invite.getByText('JSON body').click();
    await poll(() => invite.locator('pre').textContent()).toContain('email');
    await screenshot(page, 'api-docs-1440');

    await page.setViewportSize({ width: 1024, height: 800 });
    // nothing wider than the window: the page reads without a horizontal scroll
    await poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'api-docs-1024');

    const json = page.getByRole('link', { name: '/api/openapi.json' });
    const res = await page.request.get(new URL((await json.getAttribute('href'))!, baseUrl()).toString());
    expect(res.status()).toBe(200);
    expect((await res.json()).openapi).toMatch(/^3\.1/);
  });
});
