// /settings/event-queue-status against the shared server. The demo seeds no queue state (only
// what the engines did shows), so this test makes a real backlog: a team responder whose support
// case goes to a webhook nobody listens on (127.0.0.1:9); its dispatch fails and is retried,
// and the page shows it under the event name and the consumer that failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectionToRow, connectionTypeDef } from '@watchdeck/core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

describe('event queue', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const suffix = Date.now();

  beforeAll(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    page = await context.newPage();
    const post = async (path: string, data: unknown) => {
      const res = await context.request.post(`${baseUrl()}/api/db/${path}`, {
        headers: { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
        data,
      });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const connection = `e2e-queue-cases-${suffix}`;
    await post(
      'connections',
      connectionToRow(connectionTypeDef('case_webhook')!, {
        name: connection,
        namespace: 'default',
        url: 'http://127.0.0.1:9/cases',
        responderType: 'aws_support',
        password: 'case-token',
      }),
    );
    const team = await post('teams', {
      name: `E2E Queue ${suffix}`,
      spec: {
        responder_clients: {
          aws_support: { connection, values: { category: 'technical', description: 'Queue test', body: 'x' } },
        },
      },
    });
    const incident = await post('incidents', { title: `Event queue e2e ${suffix}` });
    await post('responders', {
      incident_id: incident.id,
      team_id: team.id,
      type: 'aws_support',
      properties: { responderType: 'aws_support' },
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the backlog per event name and consumer with the seed columns', async () => {
    await page.goto(`${baseUrl()}/settings/event-queue-status`);
    const table = page.getByRole('table', { name: 'Event queue' });
    const dispatch = table.getByRole('row', { name: /incident\.responder\.dispatch.*incidents\.responder-dispatch/ });
    await poll(() => dispatch.count()).toBe(1);
    const headers = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim().toLowerCase());
    expect(headers).toEqual([
      'name',
      'consumer',
      'pending',
      'failed',
      'average attempts',
      'first failure',
      'last failure',
      'most common error',
    ]);
    const reload = async () => {
      const button = page.getByRole('button', { name: 'Reload event queue' });
      await button.click();
      await poll(() => button.isEnabled()).toBe(true);
    };
    // the failed call's error, once its first attempt is over
    await poll(async () => {
      await reload();
      return (await dispatch.locator('td').nth(7).innerText()).trim();
    }).toMatch(/could not be reached/);

    // the page shows what the API says, row for row (read again until no retry moved in between)
    await poll(async () => {
      const api = (await (
        await page.request.get(`${baseUrl()}/api/db/event_queue_summary?order=last_failure.desc`)
      ).json()) as {
        name: string;
        consumer: string;
        pending: number;
        failed: number;
        most_common_error: string | null;
      }[];
      await reload();
      const shown = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => (td.textContent ?? '').trim())),
        );
      const want = JSON.stringify(
        api.map((r) => [r.name, r.consumer, String(r.pending), String(r.failed), r.most_common_error ?? '']),
      );
      const got = JSON.stringify(shown.map((c) => [c[0], c[1], c[2], c[3], c[7]]));
      return got === want ? 'same' : `page ${got}\napi  ${want}`;
    }).toBe('same');
    await screenshot(page, 'event-queue');
  });

  it('is in the settings menu', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Event Queue' }).click();
    await page.waitForURL('**/settings/event-queue-status');
  });
});
