import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

// /settings/event-queue-status against the shared server: the demo data left dead-lettered
// events in the queue (notification.send, playbook.action, config.updated).

describe('event queue', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the summary per event name with the seed columns', async () => {
    await page.goto(`${baseUrl()}/settings/event-queue-status`);
    const table = page.getByRole('table', { name: 'Event queue' });
    await poll(() => table.getByRole('row', { name: /notification\.send/ }).count()).toBe(1);
    const headers = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim().toLowerCase());
    expect(headers).toEqual([
      'name',
      'pending',
      'failed',
      'average attempts',
      'first failure',
      'last failure',
      'most common error',
    ]);

    // the page shows what the API says, row for row
    const api = (await (
      await page.request.get(`${baseUrl()}/api/db/event_queue_summary?order=last_failure.desc`)
    ).json()) as {
      name: string;
      pending: number;
      failed: number;
      most_common_error: string | null;
    }[];
    expect(api.length).toBeGreaterThan(0);
    const names = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(names.map((n) => n.trim())).toEqual(api.map((r) => r.name));
    for (const r of api) {
      const cells = (
        await table
          .getByRole('row', { name: new RegExp(r.name.replace('.', '\\.')) })
          .locator('td')
          .allInnerTexts()
      ).map((c) => c.trim());
      expect(cells[1]).toBe(String(r.pending));
      expect(cells[2]).toBe(String(r.failed));
      expect(cells[6]).toBe(r.most_common_error ?? '');
    }
    await screenshot(page, 'event-queue');
  });

  it('is in the settings menu', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Event Queue' }).click();
    await page.waitForURL('**/settings/event-queue-status');
  });
});
