// Issue 24: /health while the summary is slow (the embedded database at 5,000 checks). The real
// server answers; the browser holds its answer back (page.route) to play a slow server. The page
// shows a progress state, not an empty table, and sends the summary once: index.html's early call
// is adopted however long it takes, and nothing on the page asks for the same summary again
// while it is in flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

describe('health dashboard on a slow summary', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens /health with every summary answer held back `holdMs`; counts the summary requests. */
  async function slowPage(width: number, holdMs: number): Promise<{ page: Page; sent: string[]; overlaps: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const sent: string[] = [];
    // a summary asked for again while the same one is still in flight (what must never happen;
    // a later refresh after it answered is the auto-refresh doing its job)
    const overlaps: string[] = [];
    const inFlight = new Map<string, number>();
    const search = (url: string) => new URL(url).search;
    const isSummary = (url: string) => new URL(url).pathname === '/api/canary/api/summary';
    page.on('request', (r) => {
      if (!isSummary(r.url())) return;
      const s = search(r.url());
      if (inFlight.get(s)) overlaps.push(s);
      inFlight.set(s, (inFlight.get(s) ?? 0) + 1);
      sent.push(s);
    });
    const settle = (r: { url(): string }) => {
      if (isSummary(r.url())) inFlight.set(search(r.url()), (inFlight.get(search(r.url())) ?? 1) - 1);
    };
    page.on('requestfinished', settle);
    page.on('requestfailed', settle);
    await page.route('**/api/canary/api/summary*', async (route: Route) => {
      await new Promise((r) => setTimeout(r, holdMs));
      await route.continue().catch(() => {});
    });
    await page.goto(`${baseUrl()}/health?hidePassing=false`);
    return { page, sent, overlaps };
  }

  for (const [width, holdMs] of [
    [1440, 20_000],
    [1024, 4000],
  ] as const) {
    it(`shows progress, not an empty table, and sends the summary once (${width} px, ${holdMs / 1000} s answer)`, async () => {
      const { page, sent } = await slowPage(width, holdMs);
      const progress = page.getByTestId('health-summary-progress');
      await poll(() => progress.isVisible()).toBe(true);
      expect(await progress.getAttribute('aria-busy')).toBe('true');
      await expect(progress.getByRole('progressbar')).toBeTruthy();
      // no table saying "no data" meanwhile
      expect(await page.getByText('No data available').count()).toBe(0);
      expect(await page.getByTestId('check-row-name').count()).toBe(0);
      if (holdMs > 5000) {
        // the seconds waited show once it takes a while
        await poll(() => progress.textContent(), 10_000).toMatch(/Waiting for the server: \d+ s/);
      }
      await screenshot(page, `health-progress-${width}`);
      // the rows arrive from that one call
      await poll(async () => page.getByTestId('check-row-name').count(), holdMs + 30_000).toBeGreaterThan(0);
      expect(await progress.count()).toBe(0);
      expect(sent).toEqual(['?start=1h']);
      await screenshot(page, `health-progress-done-${width}`);
      await page.context().close();
    }, 90_000);
  }

  it('a refresh while the summary is in flight waits for that call instead of sending another', async () => {
    const { page, sent, overlaps } = await slowPage(1440, 5000);
    await poll(() => page.getByTestId('health-summary-progress').isVisible()).toBe(true);
    // a reload of the same view mid-flight is a new page (its own call); a second range request
    // and back inside the page is not: back on 1h, the 1h call still in flight is the one used
    await page.getByLabel('Time range', { exact: true }).selectOption('2d');
    await page.getByLabel('Time range', { exact: true }).selectOption('1h');
    await poll(async () => page.getByTestId('check-row-name').count(), 40_000).toBeGreaterThan(0);
    expect(sent).toContain('?start=1h');
    expect(overlaps).toEqual([]);
    await page.context().close();
  }, 90_000);
});
