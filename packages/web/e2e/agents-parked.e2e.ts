// An agent's parked pushes on its page (/settings/agents?id=) against the real server (AUTH=none:
// everyone is an administrator), at 1440 and 1024 px. The agent's side is played through the
// real upstream route with the agent's own token (POST /api/agent/parked: its report, and the
// requests in the answer); agent mode itself carrying them out is the server's parking test.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

describe.each([1440, 1024])('agent parked pushes at %i px', (width) => {
  let browser: Browser;
  let page: Page;
  const name = `e2e-parked-${width}-${Date.now().toString(36)}`;
  let agent: { id: string; access_token: string };
  const rowA = crypto.randomUUID();
  const rowB = crypto.randomUUID();
  const item = crypto.randomUUID();

  const report = async (body: unknown) => {
    const res = await fetch(`${baseUrl()}/api/agent/parked`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { requests: { id: string; action: string; requested_at: string }[] };
  };
  const parked = (id: string, extra: Record<string, unknown>) => ({
    id,
    parked_at: new Date(Date.now() - 3_600_000).toISOString(),
    attempts: 1,
    last_attempt_at: null,
    ...extra,
  });

  beforeAll(async () => {
    browser = await launch();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
    const res = await fetch(`${baseUrl()}/api/agent/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl() },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(201);
    agent = (await res.json()) as typeof agent;
    await report({
      parked: [
        parked(rowA, {
          table: 'config_items',
          key: item,
          row: { id: item, name: `orders-api-${width}`, type: 'Kubernetes::Service' },
          error: '400 {"statusCode":400,"code":"invalid_body","message":"config_items: a value this table refuses"}',
        }),
        parked(rowB, {
          table: 'check_statuses',
          key: `${item}/2026-11-26T10:00:00.000Z`,
          row: { check_id: item, time: '2026-11-26T10:00:00.000Z' },
          error:
            '400 {"statusCode":400,"code":"invalid_body","message":"check_statuses: check_id names an unknown checks row"}',
        }),
      ],
    });
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `agents-parked-${width}-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const shot = (n: string) => screenshot(page, `agents-parked-${width}-${n}`);
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
  const dialog = () => page.getByRole('dialog', { name: `Edit Agent ${name}` });
  const table = () => dialog().getByRole('table', { name: 'Parked pushes' });
  const row = (text: string) => table().getByRole('row').filter({ hasText: text });

  it('counts the parked rows in the list and shows them on the agent page', async () => {
    await page.goto(`${baseUrl()}/agents?pageSize=200`);
    const listRow = page.getByRole('table', { name: 'Agents' }).getByRole('row').filter({ hasText: name });
    await poll(() => listRow.innerText()).toContain('2 parked');
    await listRow.click();
    await page.waitForURL(new RegExp(`id=${agent.id}`));
    await poll(() => table().getByRole('row').count()).toBe(3);
    const a = await row(`orders-api-${width}`).innerText();
    expect(a).toContain('config_items');
    expect(a).toContain('400: config_items: a value this table refuses');
    expect(a).toMatch(/hour ago/);
    expect(await row('check_statuses').innerText()).toContain('check_id names an unknown checks row');
    await shot('list');
  });

  it('asks the agent to retry a row and shows the outcome it reports', async () => {
    await page.goto(`${baseUrl()}/settings/agents?id=${agent.id}`);
    await dialog()
      .getByRole('button', { name: `Retry orders-api-${width}` })
      .click();
    await poll(() => toast('Retry requested').count()).toBe(1);
    await poll(() => row(`orders-api-${width}`).innerText()).toContain('Retry requested');
    await shot('retry-requested');
    // the agent's next report carries the request; it tries, is refused again, and says so
    const { requests } = await report({});
    expect(requests.map((q) => [q.id, q.action])).toEqual([[rowA, 'retry']]);
    await report({
      parked: [
        parked(rowA, {
          table: 'config_items',
          key: item,
          row: { id: item, name: `orders-api-${width}`, type: 'Kubernetes::Service' },
          error: '400 {"statusCode":400,"code":"invalid_body","message":"config_items: still refused"}',
          attempts: 2,
          last_attempt_at: new Date().toISOString(),
          handled_request_at: requests[0].requested_at,
        }),
      ],
    });
    // the page looks again by itself
    await poll(() => row(`orders-api-${width}`).innerText(), 20_000).toContain('still refused');
    const after = await row(`orders-api-${width}`).innerText();
    expect(after).toMatch(/\b2\b/);
    expect(after).toContain('last tried');
    expect(after).not.toContain('Retry requested');
    await shot('retried');
  });

  it('discards a row after a confirmation; once the agent forgot it, it leaves the page', async () => {
    await page.goto(`${baseUrl()}/settings/agents?id=${agent.id}`);
    await dialog()
      .getByRole('button', { name: `Discard ${item}/2026-11-26T10:00:00.000Z` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Discard parked rows' });
    await poll(() => confirm.count()).toBe(1);
    await shot('discard-confirm');
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await poll(() => toast('Discard requested').count()).toBe(1);
    await poll(() => row('check_statuses').innerText()).toContain('Discard requested');
    const { requests } = await report({});
    expect(requests.map((q) => [q.id, q.action])).toEqual([[rowB, 'discard']]);
    await report({ resolved: [{ id: rowB, resolution: 'discarded' }] });
    await poll(() => table().getByRole('row').count(), 20_000).toBe(2);
    // and the last one: stored by a retry, nothing is parked any more
    await report({ resolved: [{ id: rowA, resolution: 'stored' }] });
    await poll(() => dialog().getByText('Nothing parked').count(), 20_000).toBe(1);
    await shot('empty');
  });
});
