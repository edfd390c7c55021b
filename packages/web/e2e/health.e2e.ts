// The health dashboard (/health) and the check drawer against the real server with demo data
// (canaries from packages/server/src/demo/health.ts) and the real check engine. The demo seeds no
// history: every result here is a run of the engine since the server started. The demo checks
// watch this console (they pass) except the ones named "deliberately failing: ..." (a closed
// port). This file adds canaries of its own against a local peer, runs some checks with Run Now
// to have a history to page and filter, and one check of a registered remote agent that never
// connected (so it never ran).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launch, baseUrl, screenshot, poll, waitUntil } from './browser.ts';

interface SummaryCheck {
  id: string;
  name: string;
  canary_name: string;
  status: 'healthy' | 'unhealthy' | null;
}
const DEMO_CANARIES = ['console', 'database', 'deliberate-failures'];

const url = (query = '') => `${baseUrl()}/health${query}`;

describe('health dashboard', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // A real HTTP peer for the checks this file adds: answers 500 until told otherwise.
  let target: Server;
  let targetOk = false;
  let targetUrl = '';

  const post = async (table: string, body: unknown) => {
    const r = await fetch(`${baseUrl()}/api/db/${table}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    expect(r.status, text).toBe(201);
    return (JSON.parse(text) as { id: string }[])[0];
  };
  const get = async <T>(path: string) => (await (await fetch(`${baseUrl()}/api/db/${path}`)).json()) as T;
  const summaryChecks = async () =>
    ((await (await fetch(`${baseUrl()}/api/canary/api/summary`)).json()) as { checks_summary: SummaryCheck[] })
      .checks_summary;

  beforeAll(async () => {
    target = createServer((req, res) => {
      const answer = () => {
        res.writeHead(targetOk ? 200 : 500, { 'content-type': 'text/plain' });
        res.end(targetOk ? 'ok' : 'broken');
      };
      // /slow answers after a second: runs the duration filter can find
      if (req.url === '/slow') setTimeout(answer, 1100);
      else answer();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    // A canary of this file's own, so the label and description assertions don't depend on the
    // demo checks (the engine re-syncs those from their canaries' specs as it runs them).
    const res = await fetch(`${baseUrl()}/api/db/canaries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Prefer: 'return=minimal' },
      body: JSON.stringify({
        name: 'e2e-shop',
        namespace: 'e2e',
        labels: { env: 'e2e', tier: 'web' },
        schedule: '@every 5m',
        spec: {
          http: [
            { name: 'e2e shop home', url: targetUrl, labels: { app: 'shop', owner: 'e2e', region: 'eu' } },
            {
              name: 'e2e shop api',
              description: 'Checkout API behind the gateway',
              url: `${targetUrl}api`,
              labels: { app: 'api', owner: 'e2e', region: 'us' },
            },
          ],
        },
      }),
    });
    expect(res.status).toBe(201);
    // A canary whose check has a history of passed and failed runs, made with Run Now; it ends
    // failing, as the peer does, so the scheduler's runs change nothing.
    const history = await post('canaries', {
      name: 'e2e-history',
      namespace: 'e2e',
      schedule: '@every 1h',
      spec: { http: [{ name: 'e2e history probe', url: `${targetUrl}slow` }] },
    });
    const probe = (await get<{ id: string }[]>(`checks?canary_id=eq.${history.id}&select=id`))[0].id;
    for (const ok of [true, true, false, false]) {
      targetOk = ok;
      expect(
        (await fetch(`${baseUrl()}/api/canary/run/check/${probe}`, { method: 'POST', headers: { origin: baseUrl() } }))
          .status,
      ).toBe(200);
    }
    targetOk = false;
    // A check of the registered remote agent eu-west-prod, as an agent would push it: the agent
    // never connected, so the check never ran.
    const [remote] = await get<{ id: string }[]>('agents?name=eq.eu-west-prod&select=id');
    const remoteCanary = await post('canaries', {
      name: 'e2e-remote',
      namespace: 'e2e',
      agent_id: remote.id,
      spec: { http: [{ name: 'e2e remote check', url: 'http://10.0.0.1/' }] },
    });
    await post('checks', {
      canary_id: remoteCanary.id,
      agent_id: remote.id,
      namespace: 'e2e',
      type: 'http',
      name: 'e2e remote check',
      spec: { name: 'e2e remote check', url: 'http://10.0.0.1/' },
    });
    // Every demo check has run at least once (their schedules: 1 and 2 minutes), and the
    // console's api health has a few runs of history (Run Now, as a person would).
    await waitUntil(
      async () => {
        const checks = await summaryChecks();
        const demo = checks.filter((c) => DEMO_CANARIES.includes(c.canary_name));
        return demo.length >= 10 && demo.every((c) => c.status !== null);
      },
      200_000,
      'every demo check to have run',
    );
    const api = (await summaryChecks()).find((c) => c.name === 'console api health')!;
    for (let i = 0; i < 4; i++)
      expect(
        (await fetch(`${baseUrl()}/api/canary/run/check/${api.id}`, { method: 'POST', headers: { origin: baseUrl() } }))
          .status,
      ).toBe(200);
    browser = await launch();
    // Tall enough for every demo check's row: the table renders only the rows in view (virtual).
    context = await browser.newContext({ viewport: { width: 1440, height: 2000 } });
    page = await context.newPage();
  }, 240_000);
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `health-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => target?.close(r));
  });

  const rowNames = () => page.getByTestId('check-row-name').allTextContents();
  const rowFor = (name: string) =>
    page.getByRole('row').filter({ has: page.getByTestId('check-row-name').filter({ hasText: name }) });
  const search = () => new URL(page.url()).searchParams;
  const healthOfRows = () =>
    page
      .getByRole('table', { name: 'Health checks' })
      .locator('tbody [data-health]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-health')));

  it('lists failing checks by default (Hide Passing on), grouped by canary, with the counter', async () => {
    await page.goto(url());
    await poll(async () => (await rowNames()).length).toBeGreaterThan(0);
    // Hide Passing is on by default: every row shown is not healthy
    expect(await page.getByRole('switch', { name: 'Hide Passing' }).getAttribute('aria-checked')).toBe('true');
    expect((await healthOfRows()).every((h) => h !== 'healthy')).toBe(true);
    // grouped by canary name (Group By default): group rows carry the canaries' names
    expect(await page.getByLabel('Group By').inputValue()).toBe('canary_name');
    await poll(() =>
      page
        .locator('tbody tr[aria-expanded]')
        .filter({ hasText: /^deliberate-failures/ })
        .count(),
    ).toBe(1);
    // the counter covers passing and failing checks, as the engine left them
    const passing = Number(await page.getByTestId('passing-count').textContent());
    const failing = Number(await page.getByTestId('failing-count').textContent());
    const checks = await summaryChecks();
    expect(passing).toBe(checks.filter((c) => c.status === 'healthy').length);
    expect(passing).toBeGreaterThanOrEqual(6); // the demo's checks of this console
    expect(failing).toBe((await rowNames()).length);
    // what fails is what is meant to: the demo's deliberate failures, and this file's own checks
    // (a peer answering 500, a remote agent that never connected)
    expect((await rowNames()).filter((n) => !n.startsWith('deliberately failing: ') && !n.startsWith('e2e '))).toEqual(
      [],
    );
    expect((await rowNames()).filter((n) => n.startsWith('deliberately failing: '))).toHaveLength(4);
    expect(await page.getByPlaceholder('Search by name, description, or endpoint').count()).toBe(1);
    await screenshot(page, 'health');

    await page.getByRole('switch', { name: 'Hide Passing' }).click();
    await poll(() => search().get('hidePassing')).toBe('false');
    await poll(async () => (await rowNames()).length).toBe(passing + failing);
    expect(await healthOfRows()).toContain('healthy');
  });

  it('searches by name, description or endpoint, debounced into the URL', async () => {
    await page.goto(url('?hidePassing=false'));
    await poll(async () => (await rowNames()).length).toBeGreaterThan(10);
    const box = page.getByPlaceholder('Search by name, description, or endpoint');
    await box.fill('watchdeck@'); // the endpoint postgres://watchdeck@127.0.0.1:1/watchdeck only
    await poll(() => search().get('query')).toBe('watchdeck@');
    await poll(rowNames).toEqual(['deliberately failing: PostgreSQL on a closed port']);
    await box.fill('behind the GATEWAY'); // a description, any case
    await poll(rowNames).toEqual(['e2e shop api']);
    await box.fill('e2e shop');
    await poll(rowNames).toEqual(['e2e shop api', 'e2e shop home']);
    await box.fill('');
    await poll(() => search().get('query')).toBeNull();
  });

  it('filters by label: include and exclude, sent to the server with exclusions prefixed by !', async () => {
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/canary/api/summary')) sent.push(new URL(r.url()).searchParams.get('labels') ?? '');
    });
    await page.goto(url('?hidePassing=false'));
    await poll(async () => (await rowNames()).length).toBeGreaterThan(10);
    const total = (await rowNames()).length;
    const appFilter = page.getByTestId('label-filters').getByRole('button', { name: /^app/ });
    await appFilter.click();
    await page.getByRole('button', { name: /^Include shop/ }).click();
    await page.keyboard.press('Escape');
    await poll(() => search().get('labels')).toBe(JSON.stringify({ 'app=shop': 1 }));
    await poll(() => sent.includes('app=shop')).toBe(true);
    await poll(rowNames).toEqual(['e2e shop home']);

    await appFilter.click();
    await page.getByRole('button', { name: /^Exclude shop/ }).click();
    await page.keyboard.press('Escape');
    await poll(() => search().get('labels')).toBe(JSON.stringify({ 'app=shop': -1 }));
    await poll(() => sent.includes('!app=shop')).toBe(true);
    await poll(async () => {
      const names = await rowNames();
      return names.includes('e2e shop api') && !names.includes('e2e shop home') && names.length === total - 1;
    }).toBe(true);
    await screenshot(page, 'health-label-filter');
  });

  it('groups by type and by nothing, and sorts by a column', async () => {
    await page.goto(url('?hidePassing=false'));
    await poll(async () => (await rowNames()).length).toBeGreaterThan(10);
    await page.getByLabel('Group By').selectOption('type');
    await poll(() => search().get('groupBy')).toBe('type');
    const tcpRow = page.locator('tbody tr[aria-expanded]').filter({ hasText: /^tcp\d/ });
    await poll(() => tcpRow.count()).toBe(1);
    // a group collapses and expands
    await tcpRow.click();
    await poll(() => rowFor('console port').count()).toBe(0);
    await tcpRow.click();
    await poll(() => rowFor('console port').count()).toBe(1);
    await screenshot(page, 'health-group-by-type');

    await page.getByLabel('Group By').selectOption('no_grouping');
    await poll(() => page.locator('tbody tr[aria-expanded]').count()).toBe(0);
    await page.getByRole('button', { name: 'Checks', exact: true }).click();
    await poll(() => search().get('sortBy')).toBe('name');
    await poll(async () => {
      const names = await rowNames();
      return (
        names.length > 10 &&
        names.join('|') === [...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).join('|')
      );
    }).toBe(true);
    await page.getByRole('button', { name: 'Checks', exact: true }).click();
    await poll(() => search().get('sortDesc')).toBe('true');
  });

  it('tabs by namespace (default) and by agent', async () => {
    await page.goto(url('?hidePassing=false'));
    const tabs = page.getByRole('tablist', { name: 'Check tabs' }).getByRole('tab');
    await poll(async () => (await tabs.allTextContents()).map((t) => t.replace(/\d+$/, ''))).toEqual([
      'All',
      'data',
      'default',
      'e2e',
      'infra',
    ]);
    await page.getByRole('tab', { name: /^infra/ }).click();
    await poll(() => search().get('tab')).toBe('infra');
    await poll(async () => {
      const infra = await rowNames();
      return infra.includes('deliberately failing: nothing listens on port 1') && !infra.includes('console api health');
    }).toBe(true);

    await page.getByLabel('Tab By').selectOption('agent');
    await poll(() => search().get('tabBy')).toBe('agent');
    expect(search().get('tab')).toBeNull();
    await poll(async () => (await tabs.allTextContents()).map((t) => t.replace(/\d+$/, ''))).toEqual([
      'All',
      'eu-west-prod',
      'local',
    ]);
    await page.getByRole('tab', { name: /^eu-west-prod/ }).click();
    await poll(rowNames).toEqual(['e2e remote check']);
    await screenshot(page, 'health-tab-agent');
  });

  it('switches to the card layout and back', async () => {
    await page.goto(url('?hidePassing=false'));
    await page.getByRole('button', { name: 'Card layout' }).click();
    await poll(() => search().get('layout')).toBe('card');
    await poll(() => page.getByTestId('check-card').count()).toBeGreaterThan(10);
    // cards show uptime to two decimals
    expect(await page.getByTestId('check-card').first().textContent()).toMatch(/\d+\.\d{2}%|—/);
    await screenshot(page, 'health-cards');
    await page.getByRole('button', { name: 'Table layout' }).click();
    await poll(() => search().get('layout')).toBeNull();
    await poll(async () => (await rowNames()).length).toBeGreaterThan(10);
  });

  it('pivots checks by a label', async () => {
    await page.goto(url('?hidePassing=false&groupBy=no_grouping'));
    await page.getByLabel('Pivot By').selectOption('labels');
    await poll(() => search().get('pivotBy')).toBe('labels');
    await page.getByLabel('Label', { exact: true }).selectOption('env');
    await poll(() => search().get('pivotLabel')).toBe('env');
    await page.getByLabel('Cell').selectOption('uptime');
    await poll(() => search().get('pivotCellType')).toBe('uptime');
    const table = page.getByRole('table', { name: 'Checks by env' });
    await poll(() => table.getByRole('columnheader', { name: 'demo' }).count()).toBe(1);
    await poll(() => table.getByRole('row').count()).toBeGreaterThan(10);
  });

  it('offers auto-refresh rates by range and keeps the choice', async () => {
    await page.goto(url());
    const refresh = page.getByLabel('Auto refresh');
    const disabled = () =>
      refresh
        .locator('option')
        .evaluateAll((os) => os.filter((o) => (o as HTMLOptionElement).disabled).map((o) => o.textContent));
    expect(await refresh.inputValue()).toBe('none');
    // 1 hour: 15s and 30s are too fast
    expect(await disabled()).toEqual(['15s', '30s']);
    await page.getByLabel('Time range', { exact: true }).selectOption('15m');
    await poll(() => search().get('timeRange')).toBe('15m');
    await poll(disabled).toEqual([]);
    await refresh.selectOption('15s');
    await page.getByLabel('Time range', { exact: true }).selectOption('6h');
    await poll(disabled).toEqual(['15s', '30s', '2m', '3m']);
    // a remembered rate that the range disables is not used
    expect(await refresh.inputValue()).toBe('none');
    await refresh.selectOption('5m');
    await page.reload();
    await poll(() => page.getByLabel('Auto refresh').inputValue()).toBe('5m');
    await page.getByLabel('Auto refresh').selectOption('none');
  });

  it('starts a deep link’s summary call before the app has loaded, and sends it once', async () => {
    const sent: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/canary/api/summary') sent.push(`summary ${u.search}`);
      else if (u.pathname === '/api/auth/whoami' || /\/assets\/health-route-.*\.js$/.test(u.pathname))
        sent.push(u.pathname.startsWith('/assets/') ? 'health route code' : 'whoami');
    };
    page.on('request', onRequest);
    // notes when index.html's inline script hands its fetch over to the app
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      let value: unknown;
      Object.defineProperty(window, '__watchdeckSummary', {
        configurable: true,
        get: () => value,
        set: (v) => {
          w.__earlySummaryUrl = (v as { url: string }).url;
          value = v;
        },
      });
    });
    try {
      for (const [query, expected] of [
        ['', '?start=1h'],
        ['?timeRange=2d', '?start=2d'],
      ] as const) {
        sent.length = 0;
        await page.goto(url(query));
        await poll(async () => (await rowNames()).length).toBeGreaterThan(0);
        // index.html's inline script sent it before the app's code asked for anything, and the
        // app took that call over instead of sending its own
        expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__earlySummaryUrl)).toBe(
          `/api/canary/api/summary${expected}`,
        );
        expect(sent.filter((s) => s.startsWith('summary'))).toEqual([`summary ${expected}`]);
        expect(sent.indexOf(`summary ${expected}`)).toBeLessThan(sent.indexOf('health route code'));
        expect(sent.indexOf(`summary ${expected}`)).toBeLessThan(sent.indexOf('whoami'));
      }
      // a label filter is left to the app (it builds that URL): still one call
      sent.length = 0;
      await page.goto(url(`?hidePassing=false&labels=${encodeURIComponent(JSON.stringify({ 'app=shop': 1 }))}`));
      await poll(rowNames).toEqual(['e2e shop home']);
      expect(sent.filter((s) => s.startsWith('summary'))).toEqual(['summary ?start=1h&labels=app%3Dshop']);
      expect(
        await page.evaluate(() => (window as unknown as Record<string, unknown>).__earlySummaryUrl),
      ).toBeUndefined();
    } finally {
      page.off('request', onRequest);
    }
  });

  it('aborts the summary request in flight when a new one starts', async () => {
    await page.goto(url());
    await poll(async () => (await rowNames()).length).toBeGreaterThan(0);
    const aborted: string[] = [];
    const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) => {
      if (r.url().includes('/api/canary/api/summary'))
        aborted.push(`${new URL(r.url()).searchParams.get('start')} ${r.failure()?.errorText}`);
    };
    page.on('requestfailed', onFailed);
    // hold the 2-day range's answer back so it is still in flight when the range changes again
    await page.route('**/api/canary/api/summary?start=2d*', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    await page.getByLabel('Time range', { exact: true }).selectOption('2d');
    await page.waitForTimeout(300);
    await page.getByLabel('Time range', { exact: true }).selectOption('1d');
    await poll(() => aborted).toEqual([expect.stringMatching(/^2d .*ABORTED/)]);
    await page.unroute('**/api/canary/api/summary?start=2d*');
    page.off('requestfailed', onFailed);
  });

  it('opens the check drawer: header, labels, stats, chart, history, spec and relationships', async () => {
    await page.goto(url('?hidePassing=false'));
    await rowFor('console api health').click();
    await poll(() => search().get('checkId')).toMatch(/^[0-9a-f-]{36}$/);
    const drawer = page.getByTestId('check-drawer');
    await poll(() => drawer.getByRole('heading', { name: 'console api health' }).count()).toBe(1);
    // the demo check watches this very server
    expect(await drawer.getByText(`${baseUrl()}/api/health`).count()).toBe(1);
    expect(await drawer.getByTestId('agent-badge').textContent()).toContain('local');
    await poll(() => drawer.getByTestId('stat-uptime').textContent()).toMatch(/\d+\.\d%\s*\d+ passed \/ \d+ failed/);
    // the check's own latency: seconds rather than ms when the machine is loaded
    expect(await drawer.getByTestId('stat-latency').textContent()).toMatch(
      /Latency 95\/97\/99[\d.]+(ms|s) \/ [\d.]+(ms|s) \/ [\d.]+(ms|s)/,
    );
    await poll(() =>
      drawer.locator('[data-testid="health-overview-chart"] .recharts-bar-rectangle').count(),
    ).toBeGreaterThan(0);
    await poll(() => drawer.getByRole('table', { name: 'Check history' }).locator('tbody tr').count()).toBeGreaterThan(
      3,
    );
    expect(await drawer.getByTestId('pagination').textContent()).toContain('Page 1 of');
    await screenshot(page, 'health-drawer');

    // the drawer's range: a week is asked for, and shows the same runs (all of them are younger
    // than the default range: the server started minutes ago and the demo seeds no history)
    const before = await drawer.getByTestId('pagination').textContent();
    const asked = page.waitForRequest((r) => /[?&]start=1w\b/.test(r.url()));
    await drawer.getByLabel('Check time range').selectOption('1w');
    await asked;
    await poll(() => drawer.getByTestId('pagination').textContent()).toBe(before);

    await drawer.getByRole('tab', { name: 'Spec' }).click();
    await poll(() => drawer.getByLabel('Check spec').textContent()).toContain(`url: ${baseUrl()}/api/health`);

    await drawer.getByRole('tab', { name: /Relationships/ }).click();
    const relCount = Number(await drawer.getByTestId('relationships-count').textContent());
    expect(await drawer.getByRole('table', { name: 'Relationships' }).locator('tbody tr').count()).toBe(
      Math.max(relCount, 1),
    );
    expect(await drawer.getByRole('link', { name: 'Edit' }).getAttribute('href')).toMatch(
      /^\/settings\/canaries\/[0-9a-f-]{36}$/,
    );
    // the Playbooks menu (playbooks.e2e.ts runs one from it); every relationship row opens its
    // screen (a config /catalog/{id}, a component /topology/{id})
    expect(await drawer.getByRole('button', { name: /Playbooks/ }).count()).toBe(1);
    const relTable = drawer.getByRole('table', { name: 'Relationships' });
    expect(await relTable.locator('tbody tr[tabindex]').count()).toBe(relCount);
    await screenshot(page, 'health-drawer-relationships');

    await page.keyboard.press('Escape');
    await poll(() => search().get('checkId')).toBeNull();
  });

  it('Run Now offline says so at once and nothing runs later; an error page from a proxy reads An error occurred', async () => {
    await page.goto(url('?hidePassing=false&query=e2e%20shop%20home'));
    await rowFor('e2e shop home').click();
    const drawer = page.getByTestId('check-drawer');
    const runNow = drawer.getByRole('button', { name: 'Run Now' });
    await poll(() => runNow.count()).toBe(1);
    // a run that reached the server (an offline attempt fails in the browser)
    let runsAnswered = 0;
    const onFinished = (r: { url(): string }) => {
      if (r.url().includes('/api/canary/run/check/')) runsAnswered++;
    };
    page.on('requestfinished', onFinished);
    await context.setOffline(true);
    try {
      await runNow.click();
      // (the history's refetch after the failed run says so too)
      await poll(() => page.getByText('No internet connection. Please try again.').count()).toBeGreaterThan(0);
      await poll(() => runNow.isEnabled(), 3000).toBe(true);
      await screenshot(page, 'health-run-now-offline');
    } finally {
      await context.setOffline(false);
    }
    // back online: no queued call goes out
    await page.waitForTimeout(1500);
    expect(runsAnswered).toBe(0);
    page.off('requestfinished', onFinished);

    // a reverse proxy's HTML page instead of the server's JSON
    await page.route('**/api/canary/run/check/**', (route) =>
      route.fulfill({
        status: 502,
        contentType: 'text/html',
        body: '<html><body><h1>502 Bad Gateway</h1>nginx</body></html>',
      }),
    );
    try {
      await runNow.click();
      await poll(() => page.getByText('An error occurred', { exact: true }).count()).toBe(1);
      expect(await page.getByText(/Bad Gateway|nginx|<html>/).count()).toBe(0);
    } finally {
      await page.unroute('**/api/canary/run/check/**');
    }
    await page.keyboard.press('Escape');
  });

  it("edits a check's canary from the drawer on /settings/canaries/{id}", async () => {
    await page.goto(url('?hidePassing=false&query=e2e%20shop%20api'));
    await rowFor('e2e shop api').click();
    await page.getByTestId('check-drawer').getByRole('link', { name: 'Edit' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/settings\/canaries\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('e2e-shop');
    await poll(() => page.locator('.cm-content[aria-label="Spec"]').textContent()).toContain('name: e2e shop api');
    await screenshot(page, 'health-edit-canary');
  });

  it("shows a check's labels as chips, the rest behind '+N more'", async () => {
    await page.goto(url('?hidePassing=false&query=e2e%20shop%20home'));
    await rowFor('e2e shop home').click();
    const chips = page.getByTestId('check-drawer').getByTestId('label-chips');
    // app, env, owner, region, tier: three chips, then '+2 more'
    await poll(() => chips.getByRole('listitem').count()).toBe(4);
    expect(await chips.textContent()).toBe('app: shopenv: e2eowner: e2e+2 more');
    await chips.getByRole('button', { name: '+2 more' }).click();
    await poll(() => chips.getByRole('listitem').count()).toBe(5);
    expect(await chips.textContent()).toContain('tier: web');
    await page.keyboard.press('Escape');
  });

  it('attaches a check as evidence to a new incident (Link to Incident)', async () => {
    await page.goto(url('?hidePassing=false&query=console%20api'));
    await rowFor('console api health').click();
    const drawer = page.getByTestId('check-drawer');
    const checkId = search().get('checkId')!;
    await drawer.getByRole('button', { name: 'Attach as Evidence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByRole('button', { name: 'Link' }).click();
    await poll(() => dialog.getByRole('alert').first().textContent()).toBe('Must select or create an incident');
    await dialog.getByLabel('Severity').selectOption('');
    await dialog.getByRole('textbox', { name: 'Incident description' }).fill('Console API answers slowly');
    await dialog.getByRole('button', { name: 'Link' }).click();
    await poll(() => dialog.getByRole('alert').first().textContent()).toBe('Please select incident severity');
    await dialog.getByLabel('Severity').selectOption('high');
    await screenshot(page, 'health-link-to-incident');
    await dialog.getByRole('button', { name: 'Link' }).click();
    await poll(() => page.getByText('Linked to incident successfully').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'View incident' }).getAttribute('href')).toMatch(
      /^\/incidents\/[0-9a-f-]{36}$/,
    );
    // the evidence is stored under a new root hypothesis of a new open incident (other tests may
    // have attached this check too: the newest is this one)
    const res = await fetch(
      `${baseUrl()}/api/db/evidences?check_id=eq.${checkId}&order=created_at.desc&limit=1&select=type,description,hypothesis:hypotheses(type,title,incident:incidents(title,status,severity,type))`,
    );
    expect(await res.json()).toEqual([
      {
        type: 'check',
        description: 'console api health is healthy',
        hypothesis: {
          type: 'root',
          title: 'Console API answers slowly',
          incident: { title: 'Console API answers slowly', status: 'open', severity: 'high', type: 'availability' },
        },
      },
    ]);
    // the toast's link opens the new incident with the check as evidence of its root hypothesis
    await page.getByRole('link', { name: 'View incident' }).click();
    await poll(() => page.getByRole('heading', { name: 'Console API answers slowly' }).count()).toBe(1);
    await page.getByRole('tab', { name: 'Action Plan' }).click();
    const root = page.locator('[data-hypothesis-type="root"]');
    await poll(() => root.getByRole('link', { name: 'console api health' }).count()).toBe(1);
    await screenshot(page, 'health-linked-incident');
  });

  it('works at 700, 1024 and 1440 px: header controls keep their size, names stay visible, the drawer fits', async () => {
    const narrow = await context.newPage();
    type Box = { x: number; y: number; width: number; height: number };
    // a select shows its whole choice: the text and the select's padding fit its width
    const textFits = (select: Locator) =>
      select.evaluate((el: HTMLSelectElement) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        const cs = getComputedStyle(el);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = ctx.measureText(el.selectedOptions[0].text).width;
        return text + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) <= el.clientWidth;
      });
    const overlaps = (a: Box, b: Box) =>
      a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
    try {
      for (const width of [700, 1024, 1440]) {
        await narrow.setViewportSize({ width, height: 900 });
        // the longest range label, 'Last 15 minutes'
        await narrow.goto(url('?hidePassing=false&timeRange=15m'));
        const names = narrow.getByTestId('check-row-name');
        await poll(() => names.count(), 15_000, `${width}`).toBeGreaterThan(3);

        // the top bar: every control at its size, none under another or past the window
        const controls = narrow.getByTestId('health-header-controls');
        const timeRange = await controls.getByLabel('Time range', { exact: true }).boundingBox();
        const refreshRate = await controls.getByLabel('Auto refresh').boundingBox();
        const counter = await narrow.getByTestId('passing-failing-counter').boundingBox();
        const addCheck = await narrow.getByRole('button', { name: 'Add check' }).boundingBox();
        const refresh = await narrow.getByRole('button', { name: 'Refresh' }).boundingBox();
        const title = await narrow.getByRole('heading', { name: 'Health', level: 1 }).boundingBox();
        expect(await textFits(controls.getByLabel('Time range', { exact: true })), `${width}: time range`).toBe(true);
        expect(refreshRate!.width, `${width}: auto refresh`).toBeGreaterThanOrEqual(100);
        expect(addCheck!.height, `${width}: Add Check on one line`).toBeLessThanOrEqual(40);
        expect(title!.width, `${width}: title`).toBeGreaterThan(30);
        const boxes = [title!, addCheck!, counter!, refreshRate!, timeRange!, refresh!];
        for (let i = 0; i < boxes.length; i++) {
          expect(boxes[i].x + boxes[i].width, `${width}: control ${i} inside the window`).toBeLessThanOrEqual(width);
          for (let j = i + 1; j < boxes.length; j++)
            expect(overlaps(boxes[i], boxes[j]), `${width}: ${i}/${j}`).toBe(false);
        }

        // every check's name keeps room in its cell; an agent badge never covers it or leaves the cell
        const rows = await narrow
          .getByRole('table', { name: 'Health checks' })
          .locator('tbody tr')
          .evaluateAll((trs) =>
            trs
              .map((tr) => {
                const name = tr.querySelector('[data-testid="check-row-name"]');
                if (!name) return undefined;
                const badge = tr.querySelector('[data-testid="check-row-agent"]');
                const box = (e: Element | null) => {
                  const r = e?.getBoundingClientRect();
                  return r && r.width > 0 ? { left: r.left, right: r.right, width: r.width } : undefined;
                };
                return { text: name.textContent, name: box(name)!, badge: box(badge), cell: box(name.closest('td'))! };
              })
              .filter((r) => !!r),
          );
        expect(rows.length).toBeGreaterThan(3);
        for (const r of rows) {
          expect(r.name.width, `${width}: ${r.text}`).toBeGreaterThanOrEqual(Math.min(70, r.text!.length * 6));
          expect(r.name.right, `${width}: ${r.text}`).toBeLessThanOrEqual(r.cell.right);
          if (r.badge) {
            expect(r.badge.left, `${width}: ${r.text} badge`).toBeGreaterThanOrEqual(r.name.right);
            expect(r.badge.right, `${width}: ${r.text} badge`).toBeLessThanOrEqual(r.cell.right);
          }
        }
        await screenshot(narrow, `health-${width}`);

        // the drawer: the close button, stats that fit their columns, a range select that reads
        await narrow.getByTestId('check-row-name').first().scrollIntoViewIfNeeded();
        await names.filter({ hasText: /\S/ }).first().click();
        const drawer = narrow.getByTestId('check-drawer');
        const close = drawer.getByRole('button', { name: 'Close' });
        await poll(() => close.isVisible(), 15_000, `${width}: close`).toBe(true);
        const closeBox = await close.boundingBox();
        expect(closeBox!.x + closeBox!.width).toBeLessThanOrEqual(width);
        await poll(() => drawer.getByTestId('stat-uptime').count()).toBe(1);
        const stats = await drawer
          .getByTestId('check-stats')
          .locator('dd')
          .evaluateAll((dds) => dds.map((d) => ({ text: d.textContent, over: d.scrollWidth - d.clientWidth })));
        for (const st of stats) expect(st.over, `${width}: ${st.text}`).toBeLessThanOrEqual(1);
        await drawer.getByLabel('Check time range').selectOption('15m');
        expect(await textFits(drawer.getByLabel('Check time range')), `${width}: drawer range`).toBe(true);
        await screenshot(narrow, `health-drawer-${width}`);
        await narrow.keyboard.press('Escape');
        await poll(() => drawer.count()).toBe(0);
      }
    } finally {
      await narrow.close();
    }
  });

  it('gives a drawer for an unknown check a close button', async () => {
    await page.goto(url('?checkId=00000000-0000-4000-8000-00000000abcd'));
    const drawer = page.getByTestId('check-drawer');
    await poll(() => drawer.getByText('Check not found').count()).toBe(1);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await poll(() => drawer.count()).toBe(0);
    expect(search().get('checkId')).toBeNull();
  });

  it('labels the Health Overview time axis once per tick, for runs seconds apart', async () => {
    // runs 20 s apart over 100 s (Run Now pressed a few times): the axis read '21:20' three times
    const base = Date.parse('2026-11-25T21:19:30');
    const points = Array.from({ length: 6 }, (_, i) => ({
      time: new Date(base + i * 20_000).toISOString(),
      passed: 1,
      failed: 0,
      duration: 40 + i,
    }));
    await page.route('**/api/canary/api/graph?**', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ status: points }) }),
    );
    try {
      await page.goto(url('?hidePassing=false&query=e2e%20shop%20api'));
      await rowFor('e2e shop api').click();
      const chart = page.getByTestId('check-drawer').getByTestId('health-overview-chart');
      await poll(() => chart.locator('.recharts-bar-rectangle').count()).toBe(6);
      const ticks = await chart
        .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')
        .allTextContents();
      expect(ticks.length).toBeGreaterThan(1);
      expect(new Set(ticks).size, ticks.join(' ')).toBe(ticks.length);
      for (const t of ticks) expect(t).toMatch(/^\d\d:\d\d(:\d\d)?$/);
      await screenshot(page, 'health-overview-axis');
    } finally {
      await page.unroute('**/api/canary/api/graph?**');
    }
    await page.keyboard.press('Escape');
  });

  it('shows the Graph tab on a short screen', async () => {
    const short = await context.newPage();
    try {
      await short.setViewportSize({ width: 1280, height: 700 });
      // the checkId parameter opens the drawer by itself
      const summary = (await (await short.request.get(`${baseUrl()}/api/canary/api/summary`)).json()) as {
        checks_summary: { id: string; name: string }[];
      };
      const id = summary.checks_summary.find((c) => c.name === 'console api health')!.id;
      await short.goto(url(`?checkId=${id}`));
      const drawer = short.getByTestId('check-drawer');
      await poll(() => drawer.getByRole('heading', { name: 'console api health' }).count()).toBe(1);
      await drawer.getByRole('tab', { name: 'Graph' }).click();
      await poll(() =>
        drawer.locator('[data-testid="health-overview-chart"] .recharts-bar-rectangle').count(),
      ).toBeGreaterThan(0);
      await screenshot(short, 'health-drawer-graph-tab');
    } finally {
      await short.close();
    }
  });

  it('filters the history by status and duration, refusing other units', async () => {
    // this file's probe: two passed runs, then two failed ones, each over a second long
    await page.goto(url('?hidePassing=false'));
    await rowFor('e2e history probe').click();
    const drawer = page.getByTestId('check-drawer');
    const history = drawer.getByRole('table', { name: 'Check history' });
    await poll(() => history.locator('tbody tr').count()).toBeGreaterThanOrEqual(4);

    const duration = drawer.getByLabel('Duration');
    await duration.fill('2m');
    await poll(() => drawer.getByRole('alert').textContent()).toBe(
      'duration is allowed only in milli seconds & seconds',
    );
    await screenshot(page, 'health-history-duration-error');
    await duration.fill('1s');
    await poll(() => drawer.getByRole('alert').count()).toBe(0);
    await poll(async () => {
      const texts = await history.locator('tbody tr td:nth-child(2)').allTextContents();
      return texts.length > 0 && texts.every((t) => /^\d+(\.\d+)?s$|^\d+m/.test(t.trim()));
    }).toBe(true);
    await duration.fill('All');

    await drawer.getByLabel('Status').selectOption('unhealthy');
    await poll(async () => {
      const states = await history
        .locator('tbody tr [aria-label]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      return states.length > 0 && states.every((s) => s === 'unhealthy');
    }).toBe(true);
    await drawer.getByLabel('Status').selectOption('healthy');
    await poll(async () => {
      const states = await history
        .locator('tbody tr [aria-label]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      return states.length > 0 && states.every((s) => s === 'healthy');
    }).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('adds a check from the health page, sees it run, and Run Now updates its row', async () => {
    await page.goto(url());
    await page.getByRole('button', { name: 'Add check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Health Check' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e-web');
    await dialog.getByLabel('Schedule').selectOption('@every 1m');
    await dialog.getByLabel('Spec', { exact: true }).click();
    await page.keyboard.insertText(`http:\n  - name: e2e endpoint\n    url: ${targetUrl}\n    responseCodes: [200]\n`);
    await screenshot(page, 'health-add-check');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.count()).toBe(0);

    // The canary's check is listed (not run yet, so not hidden as passing); then the scheduler
    // runs it against the peer, which answers 500, and the auto-refresh (15s, allowed for a 15
    // minute range) brings the row's new state in.
    const row = rowFor('e2e endpoint');
    await poll(() => row.count(), 30_000).toBe(1);
    await page.getByLabel('Time range', { exact: true }).selectOption('15m');
    await page.getByLabel('Auto refresh').selectOption('15s');
    await poll(() => row.locator('[data-health]').getAttribute('data-health'), 100_000).toBe('unhealthy');
    await page.getByLabel('Auto refresh').selectOption('none');
    await screenshot(page, 'health-added-check');

    // The peer recovers; Run Now runs the check at once and its row turns healthy (Hide Passing
    // off so the passing row stays listed).
    targetOk = true;
    await page.getByRole('switch', { name: 'Hide Passing' }).click();
    await row.click();
    const drawer = page.getByTestId('check-drawer');
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    await poll(() =>
      drawer
        .getByRole('heading', { name: 'e2e endpoint' })
        .locator('..')
        .locator('[data-health]')
        .getAttribute('data-health'),
    ).toBe('healthy');
    await screenshot(page, 'health-run-now-drawer');
    await page.keyboard.press('Escape');
    await poll(() => rowFor('e2e endpoint').locator('[data-health]').getAttribute('data-health')).toBe('healthy');
    expect(await rowFor('e2e endpoint').textContent()).toMatch(/seconds ago/);
    await screenshot(page, 'health-run-now');
  }, 180_000);
});
