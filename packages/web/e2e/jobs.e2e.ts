// Job history as the engines wrote it since the server started: the demo seeds none. The demo
// canaries run on their schedules (console: all pass, SUCCESS; database: one deliberate failure,
// WARNING; deliberate-failures: all fail, FAILED), and this file adds a canary of its own whose
// check takes over a second against a slow local peer, so the duration filter has runs to find.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll, waitUntil } from './browser.ts';

/** '1m 5s' / '31s' / '850ms' back to milliseconds (the table's duration format). */
function durationMs(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  for (const m of text.matchAll(/([\d.]+)(ms|s|m|h|d)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}

interface Run {
  name: string;
  status: string;
  resource_name: string | null;
  duration_millis: number | null;
}

describe('jobs history', () => {
  let browser: Browser;
  let page: Page;
  let slow: Server;
  let canaryId = '';
  const table = () => page.getByRole('table', { name: 'Job history' });
  const statuses = () =>
    table()
      .locator('tbody [data-status]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
  const query = () => new URL(page.url()).searchParams;
  const runs = async () =>
    (await (
      await fetch(`${baseUrl()}/api/db/job_histories?select=name,status,resource_name,duration_millis`)
    ).json()) as Run[];

  beforeAll(async () => {
    slow = createServer((_req, res) => setTimeout(() => res.end('slow but fine'), 1200));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const res = await fetch(`${baseUrl()}/api/db/canaries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify({
        name: 'e2e-jobs-slow',
        namespace: 'e2e',
        schedule: '@every 10s',
        spec: { http: [{ name: 'e2e slow page', url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/` }] },
      }),
    });
    expect(res.status).toBe(201);
    canaryId = ((await res.json()) as { id: string }[])[0].id;
    // What the real engines did since start: the demo canaries' first runs come within their
    // interval (2 minutes at most), this file's canary every 10 seconds.
    await waitUntil(
      async () => {
        const all = await runs();
        const done = (resource: string, status: string) =>
          all.some((r) => r.resource_name === resource && r.status === status);
        return (
          done('console', 'SUCCESS') &&
          done('database', 'WARNING') &&
          done('deliberate-failures', 'FAILED') &&
          all.filter((r) => r.resource_name === 'e2e-jobs-slow' && r.status === 'SUCCESS').length >= 6
        );
      },
      200_000,
      "the demo canaries and this file's canary to have run",
    );
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    if (canaryId)
      await fetch(`${baseUrl()}/api/db/canaries?id=eq.${canaryId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deleted_at: new Date().toISOString() }),
      });
    await new Promise((r) => slow?.close(r));
  });

  it('opens on the last 2 days, 50 a page, without SUCCESS runs: the failing runs of the engines', async () => {
    await page.goto(`${baseUrl()}/settings/jobs`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    const seen = await statuses();
    expect(seen).not.toContain('SUCCESS');
    // the demo's database canary (one deliberate failure) and its deliberate-failures canary
    await poll(async () => [...new Set(await statuses())].sort()).toEqual(['FAILED', 'WARNING']);
    expect(await page.getByRole('button', { name: 'Time range: Last 2 days' }).count()).toBe(1);
    expect(await page.getByText(/Page 1 of \d+/).count()).toBe(1);
    await screenshot(page, 'jobs-default');
  });

  it('filters by resource type, status, duration and job name, all in the URL', async () => {
    await page.getByRole('button', { name: 'Resource Type' }).click();
    await page.getByRole('button', { name: 'Include Canary' }).click();
    await page.keyboard.press('Escape');
    await poll(() => query().get('resource_type')).toBe('canary:1');
    await poll(async () => {
      const rows = await table().locator('tbody tr').allInnerTexts();
      return rows.length > 0 && rows.every((t) => t.includes('canary'));
    }).toBe(true);

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

    // this file's canary takes over a second (its peer answers after 1.2 s); on a loaded host a
    // demo canary may too, so the slow one must be there and every row over a second
    await page.getByLabel('Duration').selectOption('1000');
    await poll(() => query().get('runDuration')).toBe('1000');
    await poll(async () => {
      const rows = await table().locator('tbody tr').allInnerTexts();
      const cells = await table().locator('tbody tr td:nth-child(5)').allInnerTexts();
      return (
        cells.length > 0 && cells.every((c) => durationMs(c) >= 1000) && rows.some((r) => r.includes('e2e-jobs-slow'))
      );
    }).toBe(true);

    // every run so far is a CanaryRun: excluding it leaves nothing
    await page.getByRole('button', { name: 'Job Name' }).click();
    await page.getByRole('button', { name: 'Exclude CanaryRun' }).click();
    await page.keyboard.press('Escape');
    await poll(() => query().get('name')).toBe('CanaryRun:-1');
    await poll(() => page.getByText('No data available').count()).toBe(1);

    // the state survives a reload
    await page.reload();
    await poll(() => page.getByText('No data available').count()).toBe(1);
    // the topology engine runs the demo's topologies: their runs are listed under their type
    await page.goto(`${baseUrl()}/settings/jobs?status=&resource_type=topology:1`);
    await poll(async () => {
      const rows = await table().locator('tbody tr').allInnerTexts();
      return rows.length > 0 && rows.every((t) => t.includes('topology'));
    }).toBe(true);
    await page.goto(`${baseUrl()}/settings/jobs?status=&resource_type=canary:1`);
    await poll(async () => new Set(await statuses()).has('SUCCESS')).toBe(true);
    expect(
      await page
        .getByRole('toolbar', { name: 'Filters' })
        .getByRole('button', { name: /^Status/ })
        .innerText(),
    ).not.toMatch(/\d/);
  });

  it('pages and sorts on the server', async () => {
    await page.goto(`${baseUrl()}/settings/jobs?status=&pageSize=5`);
    await poll(async () => (await statuses()).length).toBe(5);
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

  it("opens a failing run's details on Errors: the failing checks with their messages", async () => {
    // the demo's database canary: one check fails on purpose, the other passes (WARNING)
    await page.goto(`${baseUrl()}/settings/jobs?resource_type=canary:1&status=WARNING:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').filter({ hasText: 'database' }).first().click();
    const modal = page.getByRole('dialog');
    await poll(() => modal.getByRole('tab', { name: 'Errors' }).getAttribute('aria-selected')).toBe('true');
    await poll(() => modal.innerText()).toMatch(
      /deliberately failing: PostgreSQL on a closed port[\s\S]*cannot connect to PostgreSQL: connection refused/,
    );
    await screenshot(page, 'jobs-details-errors');
    await page.keyboard.press('Escape');

    // every check failed (FAILED): each one's message
    await page.goto(`${baseUrl()}/settings/jobs?resource_type=canary:1&status=FAILED:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').filter({ hasText: 'deliberate-failures' }).first().click();
    await poll(() => modal.getByRole('tab', { name: 'Errors' }).getAttribute('aria-selected')).toBe('true');
    const text = await modal.innerText();
    expect(text).toMatch(/deliberately failing: nothing listens on port 1[\s\S]*refused/);
    expect(text).toMatch(/deliberately failing: TLS on a closed port/);
    expect(text).toMatch(/deliberately failing: DNS server on a closed port/);
    await page.keyboard.press('Escape');

    // a run without details opens nothing
    await page.goto(`${baseUrl()}/settings/jobs?resource_type=canary:1&status=SUCCESS:1`);
    await poll(async () => (await statuses()).length).toBeGreaterThan(0);
    await table().locator('tbody tr').first().click();
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
