// The /logs screen (seed 001 "/logs") against the real server with demo data (AUTH=none), at 1440
// and 1024 px. The demo's log backend app-logs reads the files the server itself writes (its access
// log): a request made here with a marker in its URL becomes a line the screen must find. The
// component with the log sources is made here through /api/db, so the demo's topology (the topology
// engine's) never decides an outcome.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import type { Browser, Page, Request } from 'playwright-core';
import { launch, baseUrl, screenshot, poll } from './browser.ts';

const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${baseUrl()}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
};

/**
 * A Kubernetes API server stand-in over TLS (the pod list and pod log endpoints the kubernetes log
 * backend reads): one pod `orders-1` in namespace shop whose container `app` restarted once, its
 * running instance and its previous one each logging a line of their own.
 */
async function kubeStandIn(marker: string) {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    notBeforeDate: new Date(now - 86_400_000),
    notAfterDate: new Date(now + 86_400_000),
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const ts = (ago: number) => new Date(now - ago).toISOString();
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/api/v1/namespaces/shop/pods') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const items =
        url.searchParams.get('labelSelector') === 'app=orders'
          ? [
              {
                metadata: { name: 'orders-1', namespace: 'shop', labels: { app: 'orders' } },
                spec: { containers: [{ name: 'app' }] },
                status: { containerStatuses: [{ name: 'app', restartCount: 1 }] },
              },
            ]
          : [];
      return res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items }));
    }
    if (url.pathname === '/api/v1/namespaces/shop/pods/orders-1/log' && url.searchParams.get('container') === 'app') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(
        url.searchParams.get('previous') === 'true'
          ? `${ts(600_000)} panic: nil map ${marker}-previous\n`
          : `${ts(30_000)} GET /orders 200 ${marker}-running\n`,
      );
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', status: 'Failure', message: `no ${url.pathname}`, code: 404 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: https://127.0.0.1:${(server.address() as AddressInfo).port}
    certificate-authority-data: ${Buffer.from(pems.cert).toString('base64')}
users:
- name: reader
  user:
    token: e2e
contexts:
- name: e2e
  context: {cluster: e2e, user: reader}
current-context: e2e
`;
  return { kubeconfig, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each([1440, 1024])('logs at %i px', (width) => {
  let browser: Browser;
  let page: Page;
  let componentId: string;
  const run = `${width}x${Date.now().toString(36)}`;
  const marker = `e2e-marker-${run}`;

  beforeAll(async () => {
    const [component] = await api<{ id: string }[]>('/api/db/components', {
      method: 'POST',
      headers: { prefer: 'return=representation' },
      body: JSON.stringify({
        name: `e2e-logs-${run}`,
        type: 'Service',
        logs: [
          { name: 'app-logs', type: 'file' },
          { name: 'app-logs-missing', type: 'file' },
        ],
      }),
    });
    componentId = component.id;
    // a line in the console's access log that only this run wrote
    await fetch(`${baseUrl()}/api/about?probe=${marker}`);
    browser = await launch();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail')
      await screenshot(page, `logs-${width}-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const search = () => new URL(page.url()).searchParams;
  const table = () => page.getByRole('table', { name: 'Log lines' });
  const rows = () => table().locator('tbody tr[data-index]');
  const shot = (name: string) => screenshot(page, `logs-${width}-${name}`);

  it('asks for a component first; Logs is in the main navigation', async () => {
    await page.goto(`${baseUrl()}/logs`);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await poll(() => nav.getByRole('link', { name: 'Logs' }).getAttribute('aria-current')).toBe('page');
    await poll(() => table().getByText('Please select a component to view the logs').count()).toBe(1);
    await shot('no-component');
  });

  it('opens from /logs?topologyId={id} on the first log source, newest lines first, with labels', async () => {
    await page.goto(`${baseUrl()}/logs?topologyId=${componentId}`);
    await poll(() => page.getByLabel('Component').inputValue()).toBe(componentId);
    expect(await page.getByLabel('Source').inputValue()).toBe('app-logs');
    await poll(() => rows().count()).toBeGreaterThan(0);
    const firstTime = await rows().first().locator('time').innerText();
    expect(firstTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}\.\d{2}\.\d{3}$/);
    const times = await rows()
      .locator('time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
    expect([...times].sort().reverse()).toEqual(times);
    expect(await rows().first().getByRole('list', { name: 'Labels' }).innerText()).toMatch(/service=console/);
    await shot('lines');
  });

  it('searches 500 ms after the last key, in the URL; no match shows its empty state', async () => {
    await page.goto(`${baseUrl()}/logs?topologyId=${componentId}`);
    await poll(() => rows().count()).toBeGreaterThan(0);
    const searches: string[] = [];
    const onRequest = (r: Request) => {
      if (r.url().endsWith('/api/logs'))
        searches.push((JSON.parse(r.postData() ?? '{}') as { query?: string }).query ?? '');
    };
    page.on('request', onRequest);
    const box = page.getByRole('searchbox', { name: 'Search logs' });
    await box.pressSequentially('zz-no-such-line', { delay: 20 });
    await page.waitForURL(/query=zz-no-such-line/);
    await poll(() => table().getByText('There are no logs matching the search query').count()).toBe(1);
    // one search for the whole word, none for its prefixes
    expect(searches).toEqual(['zz-no-such-line']);
    page.off('request', onRequest);
    await shot('no-match');

    // the probe's own line: page loads with the marker in their query are logged too
    await box.fill(`probe=${marker}`);
    await page.waitForURL(new RegExp(`query=probe%3D${marker}`));
    await poll(() => rows().count()).toBe(1);
    expect(await rows().first().innerText()).toContain(`GET /api/about?probe=${marker} 200`);
    // the search survives a reload
    await page.reload();
    await poll(() => page.getByRole('searchbox', { name: 'Search logs' }).inputValue()).toBe(`probe=${marker}`);
    await poll(() => rows().count()).toBe(1);
  });

  it('shows a backend that cannot serve the source as an error, not as no logs', async () => {
    await page.goto(`${baseUrl()}/logs?topologyId=${componentId}&logsSelector=app-logs-missing`);
    await poll(() => page.getByRole('alert').count()).toBe(1);
    expect(await page.getByRole('alert').innerText()).toMatch(/No log backend serves the log source app-logs-missing/);
    await page.getByLabel('Source').selectOption('app-logs');
    await poll(() => search().get('logsSelector')).toBe(null);
    await poll(() => rows().count()).toBeGreaterThan(0);
  });

  it('switches a Kubernetes source to the previous container instance, in the URL', async () => {
    const kube = await kubeStandIn(marker);
    try {
      const source = `e2e-pods-${run}`;
      const post = (path: string, body: unknown) =>
        api<{ id: string }[]>(path, {
          method: 'POST',
          headers: { prefer: 'return=representation' },
          body: JSON.stringify(body),
        });
      await post('/api/db/connections', { name: `e2e-k8s-${run}`, type: 'kubernetes', certificate: kube.kubeconfig });
      await post('/api/db/logging_backends', { name: source, spec: { kubernetes: { connection: `e2e-k8s-${run}` } } });
      const [pods] = await post('/api/db/components', {
        name: `e2e-pods-${run}`,
        type: 'Service',
        labels: { namespace: 'shop', app: 'orders' },
        logs: [{ name: source, type: 'kubernetes' }],
      });
      const sent: { previous?: boolean }[] = [];
      const onRequest = (r: Request) => {
        if (r.url().endsWith('/api/logs')) sent.push(JSON.parse(r.postData() ?? '{}') as { previous?: boolean });
      };
      page.on('request', onRequest);
      try {
        await page.goto(`${baseUrl()}/logs?topologyId=${pods.id}`);
        const previous = page.getByRole('checkbox', { name: 'Previous container' });
        await poll(() => rows().count()).toBe(1);
        expect(await rows().first().innerText()).toContain(`${marker}-running`);
        expect(await previous.isChecked()).toBe(false);
        expect(sent.at(-1)?.previous).toBeUndefined();

        // the box follows the URL, so it turns once the page re-renders: click, then wait for it
        await previous.click();
        await poll(() => previous.isChecked()).toBe(true);
        await poll(() => search().get('previous')).toBe('true');
        await poll(() => rows().first().innerText()).toContain(`panic: nil map ${marker}-previous`);
        expect(await rows().count()).toBe(1);
        expect(await rows().first().getByRole('list', { name: 'Labels' }).innerText()).toMatch(/previous=true/);
        expect(sent.at(-1)?.previous).toBe(true);
        await shot('previous-container');

        // a link to it opens it, and unchecking goes back to the running containers
        await page.reload();
        await poll(() => previous.isChecked()).toBe(true);
        await poll(() => rows().first().innerText()).toContain(`${marker}-previous`);
        await previous.click();
        await poll(() => previous.isChecked()).toBe(false);
        await poll(() => search().get('previous')).toBe(null);
        await poll(() => rows().first().innerText()).toContain(`${marker}-running`);

        // a file source has no previous instance to offer
        await page.goto(`${baseUrl()}/logs?topologyId=${componentId}&previous=true`);
        await poll(() => rows().count()).toBeGreaterThan(0);
        expect(await previous.count()).toBe(0);
        expect(sent.at(-1)?.previous).toBeUndefined();
      } finally {
        page.off('request', onRequest);
      }
    } finally {
      await kube.close();
    }
  });

  it('keeps column sizes in local storage', async () => {
    await page.goto(`${baseUrl()}/logs?topologyId=${componentId}`);
    const handle = page.getByRole('separator', { name: 'Resize Timestamp column' });
    const before = Number(await handle.getAttribute('aria-valuenow'));
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await poll(() => handle.getAttribute('aria-valuenow')).toBe(String(before + 40));
    await page.reload();
    await poll(() =>
      page.getByRole('separator', { name: 'Resize Timestamp column' }).getAttribute('aria-valuenow'),
    ).toBe(String(before + 40));
    expect(await page.locator('col[data-column="timestamp"]').getAttribute('style')).toContain(`${before + 40}px`);
  });

  it('attaches selected lines to a new incident as log evidence', async () => {
    await page.goto(`${baseUrl()}/logs?topologyId=${componentId}&query=probe%3D${marker}`);
    await poll(() => rows().count()).toBe(1);
    await rows().first().getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Attach as Evidence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.waitFor();
    const title = `Slow about page ${run}`;
    await dialog.getByLabel('Incident description').fill(title);
    await shot('attach');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await poll(() =>
      page.locator('[data-sonner-toast]').filter({ hasText: 'Linked to incident successfully' }).count(),
    ).toBe(1);
    const [incident] = await api<{ id: string }[]>(`/api/db/incidents?title=eq.${encodeURIComponent(title)}&select=id`);
    const evidences = await api<
      { type: string; component_id: string; evidence: { lines: { message: string }[]; selected_lines: number[] } }[]
    >(
      `/api/db/evidences?select=type,component_id,evidence,hypotheses!inner(incident_id)&hypotheses.incident_id=eq.${incident.id}`,
    );
    expect(evidences).toHaveLength(1);
    expect(evidences[0].type).toBe('log');
    expect(evidences[0].component_id).toBe(componentId);
    expect(evidences[0].evidence.selected_lines).toEqual([0]);
    expect(evidences[0].evidence.lines[0].message).toContain(marker);
  });
});
