// The notification screens (seed 002 section 2.15) against the shared server (demo data,
// AUTH=none: everyone is an administrator): rules created and edited through their dialog with
// the recipient tabs, the send history with its filters in the URL, silences added, edited and
// deleted; a real failing check sent through a rule made in the dialog to a webhook this test
// listens on, seen in the send history and its detail; then, on a server of its own with sign-in on, what a viewer is not offered.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';
import { startServer, type StartedServer } from './server.ts';

const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${baseUrl()}/api/db/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
};

interface RuleApiRow {
  id: string;
  title: string;
  events: string[];
  filter: string | null;
  repeat_interval: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: { name: string; connection: string }[] | null;
  source: string;
}

const RULE_TITLE = 'e2e failing payments checks';
const HOOK_RULE = 'e2e hook on failure';
const PROBE = 'e2e notify probe';

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}
const SILENCE_CHECK = 'deliberately failing: PostgreSQL on a closed port';

describe('notifications', () => {
  let browser: Browser;
  let page: Page;
  // the webhook peer: every call it receives, answered 200
  let peer: http.Server;
  let peerUrl = '';
  const hooks: { method?: string; path?: string; body: unknown }[] = [];
  let sendId = '';

  beforeAll(async () => {
    peer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        hooks.push({ method: req.method, path: req.url, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/`;
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `notifications-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => (peer ? peer.close(r) : r(undefined)));
  });

  const search = () => new URL(page.url()).searchParams;
  const dialog = (name?: string) => page.getByRole('dialog', name ? { name } : undefined);
  const field = (label: string) => dialog().getByLabel(new RegExp(`^${label}\\*?$`));
  // the recipient selects share their names with their tabs' panels
  const select = (label: string) => dialog().getByRole('combobox', { name: new RegExp(`^${label}\\*?$`) });
  const row = (table: string, text: string) =>
    page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
  const settled = (table: string) => poll(() => page.getByRole('table', { name: table }).getAttribute('aria-busy'));
  const ruleByTitle = async (title: string) =>
    (await api<RuleApiRow[]>(`notifications?title=eq.${encodeURIComponent(title)}&deleted_at=is.null&select=*`))[0];

  it('lists the rules with their events, recipient and counters', async () => {
    await page.goto(`${baseUrl()}/notifications/rules`);
    await poll(() => row('Notification rules', 'Failing checks to SRE').count()).toBe(1);
    await settled('Notification rules').toBeNull();
    const sre = row('Notification rules', 'Failing checks to SRE');
    expect(await sre.textContent()).toContain('check.failed');
    expect(await sre.textContent()).toContain('SRE');
    expect(await row('Notification rules', 'Component health to #sre-alerts').textContent()).toContain('sre-slack');
    // the tabs between the three screens, the current one marked
    const nav = page.getByRole('navigation', { name: 'Notifications' });
    expect(await nav.getByRole('link', { name: 'Rules' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'notifications-rules-1440');
  });

  it('shows a rule that does not come from the console read-only', async () => {
    await row('Notification rules', 'Deleted configs').click();
    await poll(() => dialog('Edit Notification Rule').count()).toBe(1);
    expect(search().get('id')).toMatch(/^[0-9a-f-]{36}$/);
    await poll(() => dialog().getByText('This rule comes from KubernetesCRD').count()).toBe(1);
    expect(await dialog().getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await field('Title').isDisabled()).toBe(true);
    await screenshot(page, 'notifications-rule-read-only');
    await page.keyboard.press('Escape');
    await poll(() => dialog().count()).toBe(0);
    expect(search().get('id')).toBeNull();
  });

  it('creates a rule: events and a recipient required, the recipient tabs clear each other', async () => {
    // keyboard: the add button opens the dialog with Enter
    await page.getByRole('button', { name: 'Add Rule' }).focus();
    await page.keyboard.press('Enter');
    await poll(() => dialog('Add Notification Rule').count()).toBe(1);
    await dialog().getByRole('button', { name: 'Save' }).click();
    // events (seed 002 section 5) and the person of the default Person tab
    await poll(() => dialog().getByText('This field is required').count()).toBe(2);
    await screenshot(page, 'notifications-rule-validation');

    await field('Title').fill(RULE_TITLE);
    await dialog().getByRole('checkbox', { name: 'check.failed' }).check();
    await field('Filter').fill("check.name.contains('payments')");
    await field('Repeat interval').selectOption({ label: '3 hours' });
    // Team, then Others: the team chosen is cleared
    await dialog().getByRole('tab', { name: 'Team' }).click();
    await select('Team').selectOption({ label: 'SRE' });
    await dialog().getByRole('tab', { name: 'Others' }).click();
    await dialog().getByRole('tab', { name: 'Team' }).click();
    expect(await select('Team').inputValue()).toBe('');
    await dialog().getByRole('tab', { name: 'Others' }).click();
    await select('Connection').selectOption({ label: 'sre-slack (slack)' });
    await poll(() => dialog().getByText('This field is required').count()).toBe(0);
    await screenshot(page, 'notifications-rule-create');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Notification rule created successfully').count()).toBe(1);
    await poll(() => dialog().count()).toBe(0);
    await poll(() => row('Notification rules', RULE_TITLE).count()).toBe(1);

    const saved = await ruleByTitle(RULE_TITLE);
    expect(saved).toMatchObject({
      events: ['check.failed'],
      filter: "check.name.contains('payments')",
      repeat_interval: '3h',
      person_id: null,
      team_id: null,
      source: 'UI',
      custom_services: [{ name: 'sre-slack', connection: 'connection://default/sre-slack' }],
    });
  });

  it('edits the rule from its row (?id=): another recipient replaces the custom service', async () => {
    await row('Notification rules', RULE_TITLE).click();
    await poll(() => dialog('Edit Notification Rule').count()).toBe(1);
    const { id } = await ruleByTitle(RULE_TITLE);
    expect(search().get('id')).toBe(id);
    expect(await dialog().getByRole('tab', { name: 'Others' }).getAttribute('aria-selected')).toBe('true');
    expect(await select('Connection').inputValue()).toBe('connection://default/sre-slack');
    expect(await dialog().getByRole('checkbox', { name: 'check.failed' }).isChecked()).toBe(true);
    await dialog().getByRole('checkbox', { name: 'check.passed' }).check();
    await dialog().getByRole('tab', { name: 'Person' }).click();
    await select('Person').selectOption({ label: 'Liam Chen <liam.chen@example.com>' });
    await dialog().getByRole('button', { name: 'Update' }).click();
    await poll(() => toast('Notification rule updated successfully').count()).toBe(1);
    await poll(() => dialog().count()).toBe(0);
    await poll(() => row('Notification rules', RULE_TITLE).textContent()).toContain('Liam Chen');
    const saved = await ruleByTitle(RULE_TITLE);
    expect(saved.events).toEqual(['check.failed', 'check.passed']);
    expect(saved.custom_services).toBeNull();
    expect(saved.team_id).toBeNull();
    expect(saved.person_id).not.toBeNull();
    await screenshot(page, 'notifications-rules-after-edit');
  });

  it('shows the send history with its filters in the URL', async () => {
    await page.goto(`${baseUrl()}/notifications`);
    await settled('Notification send history').toBeNull();
    const total = (await fetch(`${baseUrl()}/api/db/notification_send_history?select=id&limit=1`, {
      headers: { prefer: 'count=exact' },
    }).then((r) => r.headers.get('content-range')))!.split('/')[1];
    if (total === '0') await poll(() => page.getByText('No notifications have been sent yet').count()).toBe(1);
    await page.getByLabel('Status').selectOption({ label: 'Repeated' });
    await poll(() => search().get('status')).toBe('repeat-interval');
    await page.getByLabel('Resource type').selectOption({ label: 'Check' });
    await poll(() => search().get('resourceType')).toBe('check');
    await settled('Notification send history').toBeNull();
    await screenshot(page, 'notifications-history-1440');
    // an id that names nothing
    await page.goto(`${baseUrl()}/notifications?id=00000000-0000-0000-0000-000000000000`);
    await poll(() => dialog('Notification').getByText('No resources found').count()).toBe(1);
    await page.keyboard.press('Escape');
    await poll(() => search().get('id')).toBeNull();
  });

  it('adds a silence: a resource is required, choosing a kind clears the other, future ranges set the times', async () => {
    await page.goto(`${baseUrl()}/notifications/silences`);
    await poll(() => row('Notification silences', 'Staging cluster rebuild').count()).toBe(1);
    // a deleted silence is not listed
    expect(await row('Notification silences', 'Temporary silence, superseded').count()).toBe(0);
    await screenshot(page, 'notifications-silences-1440');
    await page.getByRole('link', { name: 'Add Silence' }).click();
    await poll(() => page.getByRole('heading', { name: 'Add Notification Silence' }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/notifications/silences/add');
    const form = page.getByRole('form', { name: 'Notification silence' });
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => form.getByText('This field is required').count()).toBe(1);

    const kinds = form.getByRole('radiogroup', { name: 'Resource kind' });
    expect(await kinds.getByRole('radio', { name: 'Check' }).getAttribute('aria-checked')).toBe('true');
    await form.getByLabel(/^Check/).fill('closed port');
    await form.getByRole('button', { name: new RegExp(SILENCE_CHECK) }).click();
    await poll(() => form.getByTestId('picked-resource').textContent()).toBe(SILENCE_CHECK);
    // another kind clears the chosen check; recursive applies to components and configs only
    await kinds.getByRole('radio', { name: 'Component' }).click();
    await poll(() => form.getByTestId('picked-resource').count()).toBe(0);
    expect(await form.getByRole('checkbox', { name: /Recursive/ }).isDisabled()).toBe(false);
    await kinds.getByRole('radio', { name: 'Check' }).click();
    expect(await form.getByRole('checkbox', { name: /Recursive/ }).isDisabled()).toBe(true);
    await form.getByLabel(/^Check/).fill('closed port');
    await form.getByRole('button', { name: new RegExp(SILENCE_CHECK) }).click();

    // the duration from a future range: From is now, Until 3 hours on
    await form.getByRole('button', { name: /^Time range: / }).click();
    await page.getByRole('button', { name: 'Next 3 hours' }).click();
    const from = new Date(await form.getByLabel(/^From/).inputValue()).getTime();
    const until = new Date(await form.getByLabel(/^Until/).inputValue()).getTime();
    expect(Math.round((until - from) / 3_600_000)).toBe(3);
    expect(Math.abs(from - Date.now())).toBeLessThan(5 * 60_000);
    await form.getByLabel('Reason').fill('e2e: planned database maintenance');
    await screenshot(page, 'notifications-silence-add');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Notification silence created successfully').count()).toBe(1);
    await poll(() => new URL(page.url()).pathname).toBe('/notifications/silences');
    await poll(() => row('Notification silences', 'e2e: planned database maintenance').count()).toBe(1);
    expect(await row('Notification silences', 'e2e: planned database maintenance').textContent()).toContain(
      SILENCE_CHECK,
    );
  });

  it('edits the silence in its dialog', async () => {
    await row('Notification silences', 'e2e: planned database maintenance').click();
    await poll(() => dialog('Edit Notification Silence').count()).toBe(1);
    expect(await dialog().getByTestId('picked-resource').textContent()).toBe(SILENCE_CHECK);
    await field('Reason').fill('e2e: maintenance moved');
    await screenshot(page, 'notifications-silence-edit');
    await dialog().getByRole('button', { name: 'Update' }).click();
    await poll(() => toast('Notification silence updated successfully').count()).toBe(1);
    await poll(() => dialog().count()).toBe(0);
    await poll(() => row('Notification silences', 'e2e: maintenance moved').count()).toBe(1);
  });

  it("deletes the silence after the 'Delete Notification Silence' confirmation", async () => {
    await row('Notification silences', 'e2e: maintenance moved').click();
    await poll(() => dialog('Edit Notification Silence').count()).toBe(1);
    await dialog().getByRole('button', { name: 'Delete' }).click();
    const confirm = dialog('Delete Notification Silence');
    await poll(() => confirm.count()).toBe(1);
    await screenshot(page, 'notifications-silence-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await poll(() => toast('Notification silence deleted successfully').count()).toBe(1);
    await poll(() => row('Notification silences', 'e2e: maintenance moved').count()).toBe(0);
    const gone = await api<{ deleted_at: string | null }[]>(
      `notification_silences?description=eq.${encodeURIComponent('e2e: maintenance moved')}&select=deleted_at`,
    );
    expect(gone).toHaveLength(1);
    expect(gone[0].deleted_at).not.toBeNull();
  });

  it('sends a failing check through a rule made in the dialog: the webhook call, the Sent row and its detail', async () => {
    // the rule's recipient: a generic webhook connection to this test's own listener
    await api('connections', {
      method: 'POST',
      body: JSON.stringify({
        name: 'e2e-hook',
        namespace: 'default',
        type: 'generic_webhook',
        url: `${peerUrl}hook`,
        properties: {
          contentType: 'application/json',
          requestMethod: 'POST',
          messageKey: 'message',
          titleKey: 'title',
        },
      }),
    });
    await page.setViewportSize({ width: 1440, height: 1000 });
    // a fresh page load: the connections list is cached for minutes
    await page.goto(`${baseUrl()}/notifications/rules`);
    await settled('Notification rules').toBeNull();
    await page.getByRole('button', { name: 'Add Rule' }).click();
    await poll(() => dialog('Add Notification Rule').count()).toBe(1);
    await field('Title').fill(HOOK_RULE);
    await dialog().getByRole('checkbox', { name: 'check.failed' }).check();
    await field('Filter').fill(`check.name == '${PROBE}'`);
    await dialog().getByRole('tab', { name: 'Others' }).click();
    await poll(() => select('Connection').locator('option', { hasText: 'e2e-hook (generic_webhook)' }).count()).toBe(1);
    await select('Connection').selectOption({ label: 'e2e-hook (generic_webhook)' });
    await dialog().getByRole('button', { name: 'Save' }).click();
    await poll(() => toast('Notification rule created successfully').count()).toBeGreaterThan(0);
    await poll(() => dialog().count()).toBe(0);
    const rule = await ruleByTitle(HOOK_RULE);
    expect(rule).toMatchObject({
      events: ['check.failed'],
      custom_services: [{ name: 'e2e-hook', connection: 'connection://default/e2e-hook' }],
    });

    // a check against a port nothing listens on, run with Run Now from its drawer
    const [canary] = await api<{ id: string }[]>('canaries', {
      method: 'POST',
      headers: { Prefer: 'return=representation' },
      body: JSON.stringify({
        name: 'e2e-notify',
        namespace: 'e2e',
        schedule: '@every 1h',
        spec: { http: [{ name: PROBE, url: `http://127.0.0.1:${await closedPort()}/down` }] },
      }),
    });
    let checkId = '';
    await poll(async () => {
      checkId = (await api<{ id: string }[]>(`checks?canary_id=eq.${canary.id}&select=id`))[0]?.id ?? '';
      return checkId;
    }).not.toBe('');
    await page.goto(`${baseUrl()}/health?checkId=${checkId}`);
    const drawer = page.getByTestId('check-drawer');
    // a health summary computed just before the check existed may answer once more: look again
    await poll(async () => {
      if (await drawer.getByText('Check not found').count()) await page.reload();
      return drawer.getByRole('button', { name: 'Run Now' }).count();
    }, 60_000).toBe(1);
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    await poll(() => toast(`${PROBE}: failed`).count(), 60_000).toBeGreaterThan(0);

    // the listener gets the one call: health publishes check.failed once, on the flip to failing
    await poll(() => hooks.length, 60_000).toBe(1);
    expect(hooks[0]).toMatchObject({ method: 'POST', path: '/hook', body: { title: `Check ${PROBE} has failed` } });
    expect((hooks[0].body as { message: string }).message).toContain(PROBE);

    // the Sent row (other rules matching every failing check may add rows of their own)
    await page.goto(`${baseUrl()}/notifications?resourceType=check`);
    const sent = row('Notification send history', PROBE).filter({ hasText: HOOK_RULE });
    await poll(() => sent.count(), 30_000).toBe(1);
    await settled('Notification send history').toBeNull();
    expect(await sent.textContent()).toContain('Sent');
    expect(await sent.textContent()).toContain('check.failed');
    await screenshot(page, 'notifications-history-sent');
    await sent.click();
    const detail = dialog('Notification');
    await poll(() => detail.getByRole('region', { name: 'Body' }).textContent()).toContain(PROBE);
    expect(await detail.getByRole('region', { name: 'Body' }).textContent()).toContain(`Check ${PROBE} has failed`);
    expect(await detail.textContent()).toContain('Sent');
    expect(await detail.textContent()).toContain('e2e-hook');
    sendId = search().get('id') ?? '';
    expect(sendId).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(page, 'notifications-history-detail');

    // the detail links to its rule, which opens in its dialog
    await detail.getByRole('link', { name: HOOK_RULE }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/notifications/rules');
    expect(search().get('id')).toBe(rule.id);
    await poll(() => dialog('Edit Notification Rule').count()).toBe(1);
    expect(await field('Title').inputValue()).toBe(HOOK_RULE);
    await page.keyboard.press('Escape');
    await poll(() => dialog().count()).toBe(0);
    expect(hooks).toHaveLength(1);
  }, 240_000);

  it('fits the three screens and the dialogs in 1024 px', async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    const fits = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    for (const [path, table, name] of [
      ['/notifications', 'Notification send history', 'history'],
      ['/notifications/rules', 'Notification rules', 'rules'],
      ['/notifications/silences', 'Notification silences', 'silences'],
    ] as const) {
      await page.goto(`${baseUrl()}${path}`);
      await poll(() => page.getByRole('table', { name: table }).count()).toBe(1);
      await settled(table).toBeNull();
      expect(await fits(), path).toBe(true);
      await screenshot(page, `notifications-${name}-1024`);
    }
    await page.goto(`${baseUrl()}/notifications/rules`);
    await row('Notification rules', 'Failing checks to SRE').click();
    await poll(() => dialog('Edit Notification Rule').count()).toBe(1);
    expect(await fits()).toBe(true);
    await screenshot(page, 'notifications-rule-edit-1024');
    await page.keyboard.press('Escape');
    await page.goto(`${baseUrl()}/notifications/silences/add`);
    await poll(() => page.getByRole('heading', { name: 'Add Notification Silence' }).count()).toBe(1);
    expect(await fits()).toBe(true);
    await screenshot(page, 'notifications-silence-add-1024');
    // the send of the test above, opened by its id
    expect(sendId).not.toBe('');
    await page.goto(`${baseUrl()}/notifications?id=${sendId}`);
    await poll(() => dialog('Notification').getByRole('region', { name: 'Body' }).textContent()).toContain(PROBE);
    expect(await fits()).toBe(true);
    await screenshot(page, 'notifications-history-detail-1024');
  });
});

// ---- a viewer, on a server with sign-in on ----

const ADMIN = { email: 'admin@example.com', password: 'admin passphrase for notifications e2e' };

async function signIn(request: APIRequestContext, base: string, email: string, password: string) {
  const flow = await (
    await request.get(`${base}/api/auth/self-service/login/browser`, { headers: { accept: 'application/json' } })
  ).json();
  const csrf = flow.ui.nodes.find((n: { attributes: { name: string } }) => n.attributes.name === 'csrf_token')
    .attributes.value;
  const res = await request.post(`${base}/api/auth/self-service/login?flow=${flow.id}`, {
    headers: { accept: 'application/json' },
    data: { csrf_token: csrf, method: 'password', identifier: email, password },
  });
  if (res.status() !== 200) throw new Error(`sign-in as ${email}: ${res.status()} ${await res.text()}`);
}

describe('notifications for a viewer', { timeout: 120_000 }, () => {
  let server: StartedServer;
  let browser: Browser;
  let viewer: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // a second server on a machine shared by many test runs: a start that outlasts its 90 s is tried again
    for (let attempt = 1; ; attempt++) {
      try {
        server = await startServer({
          AUTH: 'kratos',
          WATCHDECK_ADMIN_EMAIL: ADMIN.email,
          WATCHDECK_ADMIN_PASSWORD: ADMIN.password,
          WATCHDECK_AUTH_RATE_LIMIT: '1000',
          WATCHDECK_AUTH_FLOW_RATE_LIMIT: '1000',
        });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
    browser = await launch();
    const admin = await browser.newContext();
    await signIn(admin.request, server.baseUrl, ADMIN.email, ADMIN.password);
    const inv = await admin.request.post(`${server.baseUrl}/api/auth/invite_user`, {
      data: { firstName: 'Vera', lastName: 'Viewer', email: 'vera.viewer@example.com', role: 'viewer' },
    });
    expect(inv.status()).toBe(201);
    const { link } = await inv.json();
    viewer = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    expect((await viewer.request.get(link, { maxRedirects: 0 })).status()).toBe(303);
    page = await viewer.newPage();
  }, 400_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reads the rules and silences but is offered no add, save or delete', async () => {
    const base = server.baseUrl;
    await page.goto(`${base}/notifications/rules`);
    await poll(() => page.getByRole('row').filter({ hasText: 'Failing checks to SRE' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Add Rule' }).count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'Failing checks to SRE' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Notification Rule' });
    await poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await screenshot(page, 'notifications-viewer-rule');
    await page.keyboard.press('Escape');

    await page.goto(`${base}/notifications/silences`);
    await poll(() => page.getByRole('row').filter({ hasText: 'Staging cluster rebuild' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Add Silence' }).count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'Staging cluster rebuild' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Notification Silence' });
    await poll(() => edit.count()).toBe(1);
    expect(await edit.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await edit.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await screenshot(page, 'notifications-viewer-silences');
    await page.keyboard.press('Escape');

    await page.goto(`${base}/notifications/silences/add`);
    await poll(() => page.getByText('You do not have permission to access this page').count()).toBe(1);
    // and the server agrees
    const res = await viewer.request.post(`${base}/api/db/notification_silences`, {
      data: { check_id: null, until: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(res.status()).toBe(403);
  });
});
