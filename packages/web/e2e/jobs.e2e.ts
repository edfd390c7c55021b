import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

// The machine is shared and busy: give the page time to load its chunks and data.

/** '1m 5s' / '31s' / '850ms' back to milliseconds (the table's duration format). */
function durationMs(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  for (const m of text.matchAll(/([\d.]+)(ms|s|m|h|d)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}

describe('jobs history', () => {
  let browser: Browser;
  let page: Page;
  const table = () => page.getByRole('table', { name: 'Job history' });
  const statuses = () =>
    table()
      .locator('tbody [data-status]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
  const query = () => new URL(page.url()).searchParams;

  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens on the last 2 days, 50 a page, without SUCCESS runs', async () => {
    await page.goto(`${baseUrl()}/settings/jobs`);
    await poll(async () => (await statuses()).length).toBe(50);
    const seen = await statuses();
    expect(seen).not.toContain('SUCCESS');
    expect(new Set(seen).size).toBeGreaterThan(1);
    expect(await page.getByRole('button', { name: 'Time range: Last 2 days' }).count()).toBe(1);
    expect(await page.getByText(/Page 1 of \d+/).count()).toBe(1);
    await screenshot(page, 'jobs-default');
  });

  it('filters by resource type, status, duration and job name, all in the URL', async () => {
    await page.getByRole('button', { name: 'Resource Type' }).click();
    await page.getByRole('button', { name: 'Include Catalog Scraper' }).click();
    await page.keyboard.press('Escape');
    await poll(() => query().get('resource_type')).toBe('config_scraper:1');
    await poll(async () =>
      (await table().locator('tbody tr').allInnerTexts()).every((t) => t.includes('config_scraper')),
    ).toBe(true);

    // Status: clear the default exclusion, then include SUCCESS only
    await page
      .getByRole('toolbar', { name: 'Filters' })
      .getByRole('button', { name: /^Status/ })
      .click();
    await page.getByRole('button', { name: 'Exclude SUCCESS' }).click();
    await page.getByRole('button', { name: 'Include SUCCESS' }).click();
    await page.keyboard.press('Escape');
    await poll(() => query().get('status')).toBe('SUCCESS:1');
    await poll(async () => [...new Set(await statuses())]).toEqual(['SUCCESS']);

    await page.getByLabel('Duration').selectOption('30000');
    await poll(() => query().get('runDuration')).toBe('30000');
    await poll(async () => {
      const cells = await table().locator('tbody tr td:nth-child(5)').allInnerTexts();
      return cells.length > 0 && cells.every((c) => durationMs(c) >= 30_000);
    }).toBe(true);

    await page.getByRole('button', { name: 'Job Name' }).click();
    await page.getByRole('button', { name: 'Exclude ConfigScraper' }).click();
    await page.keyboard.press('Escape');
    await poll(() => query().get('name')).toBe('ConfigScraper:-1');
    await poll(() => page.getByText('No data available').count()).toBe(1);

    // the state survives a reload
    await page.reload();
    await poll(() => page.getByText('No data available').count()).toBe(1);
    await page.goto(`${baseUrl()}/settings/jobs?status=&resource_type=topology:1`);
    await poll(async () => new Set(await statuses()).has('SUCCESS')).toBe(true);
    expect(
      await page
        .getByRole('toolbar', { name: 'Filters' })
        .getByRole('button', { name: /^Status/ })
        .innerText(),
    ).not.toMatch(/\d/);
  });

  it('pages and sorts on the server', async () => {
    await page.goto(`${baseUrl()}/settings/jobs?status=`);
    await poll(async () => (await statuses()).length).toBe(50);
    await page.getByRole('button', { name: 'Next' }).click();
    await poll(() => query().get('pageIndex')).toBe('1');
    await poll(() => page.getByText(/Page 2 of \d+/).count()).toBe(1);
    await page.getByRole('button', { name: 'Duration' }).click();
    await poll(() => query().get('sortBy')).toBe('duration_millis');
    const desc = query().get('sortOrder') === 'desc';
    expect(query().get('pageIndex')).toBeNull();
    await poll(async () => {
      const ms = (await table().locator('tbody tr td:nth-child(5)').allInnerTexts()).map(durationMs);
      return ms.length > 1 && ms.every((v, i) => i === 0 || (desc ? v <= ms[i - 1] : v >= ms[i - 1]));
    }).toBe(true);
  });

  it('clamps Go to page to the page range and says so', async () => {
    await page.goto(`${baseUrl()}/settings/jobs`);
    const bar = page.getByTestId('pagination');
    // the runs are in (engines keep adding some, so the page count is read from what is said)
    await poll(() => table().getAttribute('aria-busy')).toBeNull();
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    const goTo = page.getByLabel('Go to page');
    for (const typed of ['999', '0', '-3']) {
      await goTo.fill(typed);
      await goTo.press('Enter');
      const said = bar.getByRole('status');
      await poll(() => said.count(), 15_000, typed).toBe(1);
      const m = /^There is no page (-?\d+): pages go from 1 to (\d+)$/.exec(await said.innerText());
      expect(m?.[1], typed).toBe(typed);
      const expected = typed === '999' ? m![2] : '1';
      await poll(() => bar.innerText(), 15_000, typed).toMatch(new RegExp(`Page ${expected} of \\d+`));
    }
    await screenshot(page, 'jobs-go-to-page-clamped');
  });

  it('opens the details modal on Errors, else Scrape Summary, else Reconcile Summary', async () => {
    // errors keyed by name (a scraper WARNING)
    await page.goto(`${baseUrl()}/settings/jobs?resource_type=config_scraper:1&status=WARNING:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').first().click();
    const modal = page.getByRole('dialog');
    await poll(() => modal.getByRole('tab', { name: 'Errors' }).getAttribute('aria-selected')).toBe('true');
    await poll(() => modal.innerText()).toMatch(
      /AWS::Lambda::Function\/webhook-dispatcher[\s\S]*AccessDeniedException/,
    );
    await screenshot(page, 'jobs-details-errors');
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl()}/settings/jobs?resource_type=config_scraper:1&status=SUCCESS:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').first().click();
    await poll(() => modal.getByRole('tab', { name: 'Scrape Summary' }).getAttribute('aria-selected')).toBe('true');
    expect(await modal.getByRole('tab', { name: 'Errors' }).count()).toBe(0);
    await poll(() => modal.innerText()).toMatch(/Kubernetes::Pod/);
    await screenshot(page, 'jobs-details-scrape-summary');
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl()}/settings/jobs?resource_type=topology:1&status=SUCCESS:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').first().click();
    await poll(() => modal.getByRole('tab', { name: 'Reconcile Summary' }).getAttribute('aria-selected')).toBe('true');
    await poll(() => modal.innerText()).toMatch(/components\s+35/);
    await page.keyboard.press('Escape');

    // a run without details opens nothing
    await page.goto(`${baseUrl()}/settings/jobs?resource_type=canary:1&status=SUCCESS:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').first().click();
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
