import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectionToRow, connectionTypeDef } from '@watchdeck/core';
import { launch, baseUrl, screenshot, poll, waitUntil } from './browser.ts';

// /settings/event-queue-status against the shared server. The demo seeds no queue rows: what the
// page lists is what the engines left since the start. To have a dead letter for certain, this
// file gives a team a ServiceNow responder whose connection points at a closed port and adds it
// to a demo incident: the responder dispatcher (a real consumer) fails to reach the system, the
// queue retries with its backoff and, after the last attempt, keeps the event as failed.

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl()}/api/db/${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', Prefer: 'return=representation' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>[];
};

interface Summary {
  name: string;
  pending: number;
  failed: number;
  most_common_error: string | null;
}

describe('event queue', () => {
  let browser: Browser;
  let page: Page;
  const summary = async () =>
    (await (await fetch(`${baseUrl()}/api/db/event_queue_summary?order=last_failure.desc`)).json()) as Summary[];

  beforeAll(async () => {
    const [conn] = await api(
      'POST',
      'connections',
      connectionToRow(connectionTypeDef('service_now')!, {
        name: 'e2e-unreachable-servicenow',
        namespace: 'default',
        url: 'http://127.0.0.1:1',
        username: 'e2e',
        password: 'e2e-password',
      }),
    );
    const [team] = await api('POST', 'teams', {
      name: 'e2e-queue-team',
      spec: {
        responder_clients: {
          service_now: {
            connection: 'e2e-unreachable-servicenow',
            values: { category: 'E2E' },
            defaults: { description: '{{.incident.title}}', body: '{{.incident.description}}' },
          },
        },
      },
    });
    const [incident] = await api('GET', 'incidents?select=id&title=eq.Payments%20API%20returning%20502s');
    await api('POST', 'responders', {
      incident_id: incident.id,
      type: 'service_now',
      team_id: team.id,
      properties: { responderType: 'service_now' },
    });
    // five attempts with the queue's backoff (1, 2, 4, 8 s), then a dead letter
    await waitUntil(
      async () => ((await summary()).find((r) => r.name === 'incident.responder.dispatch')?.failed ?? 0) > 0,
      90_000,
      'the responder dispatch to be dead-lettered',
    );
    expect(conn.id).toBeTruthy();
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the summary per event name with the seed columns, as the engines left it', async () => {
    await page.goto(`${baseUrl()}/settings/event-queue-status`);
    const table = page.getByRole('table', { name: 'Event queue' });
    const dispatch = table.getByRole('row', { name: /incident\.responder\.dispatch/ });
    await poll(() => dispatch.count()).toBe(1);
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
    // the dead letter: five attempts, the network's refusal as the error
    const cells = (await dispatch.locator('td').allInnerTexts()).map((c) => c.trim());
    expect(Number(cells[2])).toBeGreaterThan(0);
    expect(cells[6]).toMatch(/127\.0\.0\.1:1|refused/i);

    // the page shows what the API says, row for row (the engines keep working meanwhile: compare
    // a fresh page with a fresh answer until they were read at a quiet moment)
    const sameAsApi = async () => {
      const rows = await summary();
      await page.reload();
      await poll(() => dispatch.count()).toBe(1);
      const names = (await table.locator('tbody tr td:first-child').allInnerTexts()).map((n) => n.trim());
      if (rows.length === 0 || names.join('|') !== rows.map((r) => r.name).join('|')) return false;
      for (const r of rows) {
        const shown = (
          await table
            .getByRole('row', { name: new RegExp(`^${r.name.replaceAll('.', '\\.')}`) })
            .locator('td')
            .allInnerTexts()
        ).map((c) => c.trim());
        if (shown[1] !== String(r.pending) || shown[2] !== String(r.failed) || shown[6] !== (r.most_common_error ?? ''))
          return false;
      }
      return true;
    };
    await poll(sameAsApi, 45_000).toBe(true);
    await screenshot(page, 'event-queue');
  });

  it('is in the settings menu', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Event Queue' }).click();
    await page.waitForURL('**/settings/event-queue-status');
  });
});
