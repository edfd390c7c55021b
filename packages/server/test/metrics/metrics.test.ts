/**
 * GET /metrics over HTTP on both drivers: who may scrape (loopback by default, an address list,
 * a bearer token), and what a scrape shows after real work: route patterns (never ids), /api/db
 * tables, a failing check's run, latency histogram and per-check gauges, the event backlog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

const TOKEN = 'metrics-test-token-0123456789';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The value of one series in an exposition text, by metric name and a label subset. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

for (const driver of testDrivers()) {
  describe(`GET /metrics (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    beforeAll(async () => {
      db = await driver.open();
      app = await startApp(db, { authMode: 'none' });
    });
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('refuses other addresses: 403 without a token configured, 401 asking for one when it is', async () => {
      const forbidden = await startApp(db, {
        metrics: { enabled: true, allow: ['10.0.0.0/8'], checkLabelKeys: 10 },
      });
      const tokened = await startApp(db, {
        metrics: { enabled: true, allow: [], token: TOKEN, checkLabelKeys: 10 },
      });
      try {
        const f = await fetch(`${forbidden.url}/metrics`);
        expect(f.status).toBe(403);
        expect(await f.json()).toMatchObject({ statusCode: 403, code: 'forbidden', error: 'Forbidden' });
        // a token is no use where none is configured
        expect(
          (await fetch(`${forbidden.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
        ).toBe(403);
        const anon = await fetch(`${tokened.url}/metrics`);
        expect(anon.status).toBe(401);
        expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(await anon.json()).toMatchObject({ statusCode: 401, code: 'unauthenticated' });
        const wrong = await fetch(`${tokened.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
        expect(wrong.status).toBe(401);
        const ok = await fetch(`${tokened.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(await ok.text()).toMatch(/^process_cpu_user_seconds_total /m);
      } finally {
        await forbidden.app.close();
        await tokened.app.close();
      }
    });

    it('WATCHDECK_METRICS=false: no /metrics at all', async () => {
      const off = await startApp(db, { metrics: { enabled: false, allow: ['127.0.0.0/8'], checkLabelKeys: 10 } });
      try {
        expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
        expect((await fetch(`${off.url}/api/health/live`)).status).toBe(200);
      } finally {
        await off.app.close();
      }
    });

    it('shows route patterns, /api/db tables, a failing check, its gauges and the event backlog', async () => {
      const port = await closedPort();
      await app.app.engines.start();
      const headers = { 'content-type': 'application/json', origin: app.url };
      const created = await fetch(`${app.url}/api/db/canaries`, {
        method: 'POST',
        headers: { ...headers, prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
        body: JSON.stringify({
          name: 'metrics-canary',
          namespace: 'ops',
          labels: { team: 'sre', 'app.kubernetes.io/name': 'shop' },
          schedule: '@every 1h',
          spec: { tcp: [{ name: 'closed-port', endpoint: `127.0.0.1:${port}`, timeout: '2s' }] },
        }),
      });
      expect(created.status).toBe(201);
      const canary = (await created.json()) as { id: string };
      const { rows } = await db.query<{ id: string }>('SELECT id FROM checks WHERE canary_id = $1', [canary.id]);
      expect(rows).toHaveLength(1);
      // no consumer runs from here on: the check's event stays in the backlog
      await app.app.engines.queue.stop();
      const run = await fetch(`${app.url}/api/canary/run/check/${rows[0].id}`, { method: 'POST', headers });
      expect(((await run.json()) as { status: string }).status).toBe('unhealthy');
      await fetch(`${app.url}/api/db/checks?id=eq.${rows[0].id}&select=name`);

      const res = await fetch(`${app.url}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      // bounded labels: the pattern, not the id
      expect(
        sample(text, 'watchdeck_http_request_duration_seconds_count', {
          route: '/api/canary/run/check/:id',
          method: 'POST',
          status: '200',
        }),
      ).toBe(1);
      expect(text).not.toContain(`route="/api/canary/run/check/${rows[0].id}`);
      expect(
        sample(text, 'watchdeck_db_api_requests_total', { table: 'canaries', access: 'write', status: '201' }),
      ).toBe(1);
      expect(sample(text, 'watchdeck_db_api_requests_total', { table: 'checks', access: 'read', status: '200' })).toBe(
        1,
      );
      expect(sample(text, 'watchdeck_check_runs_total', { type: 'tcp', result: 'fail' })).toBe(1);
      expect(sample(text, 'watchdeck_check_duration_seconds_count', { type: 'tcp' })).toBe(1);
      expect(sample(text, 'watchdeck_check_duration_seconds_bucket', { type: 'tcp', le: '+Inf' })).toBe(1);
      const check = { check_id: rows[0].id, name: 'closed-port', namespace: 'ops', canary: 'metrics-canary' };
      expect(sample(text, 'watchdeck_check_healthy', { ...check, label_team: 'sre' })).toBe(0);
      expect(sample(text, 'watchdeck_check_healthy', { label_app_kubernetes_io_name: 'shop' })).toBe(0);
      expect(sample(text, 'watchdeck_check_latency_seconds', check)).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'watchdeck_event_backlog', { event: 'check.failed', consumer: 'incidents' })).toBe(1);
      expect(sample(text, 'watchdeck_event_dead_letters', { event: 'check.failed', consumer: 'incidents' })).toBe(0);
      if (driver.name === 'pg') expect(sample(text, 'watchdeck_db_pool_max')).toBeGreaterThan(0);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
      // an unknown path is one series, whatever the path
      await fetch(`${app.url}/api/no-such/${rows[0].id}`);
      const after = await (await fetch(`${app.url}/metrics`)).text();
      expect(sample(after, 'watchdeck_http_request_duration_seconds_count', { route: 'unmatched' })).toBe(1);
      expect(after).not.toContain(`/api/no-such/`);
      // a check's labels change: the next scrape shows the new ones (its names are cached until then)
      await db.query(`UPDATE checks SET labels = labels || '{"team": "platform"}' WHERE id = $1`, [rows[0].id]);
      const relabelled = await (await fetch(`${app.url}/metrics`)).text();
      expect(sample(relabelled, 'watchdeck_check_healthy', { ...check, label_team: 'platform' })).toBe(0);
      expect(relabelled).not.toContain('label_team="sre"');
    });
  });
}
