/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { closedPort, startHttp, type Peer } from './peers.ts';

/**
 * The health engine through the real app: canaries written through /api/db produce checks, the
 * scheduler runs them, Run Now follows seed 000's role rule, transitions publish events, and the
 * summary, graph and check_statuses history read the results.
 */
const ROLES = ['admin', 'editor', 'commander', 'responder', 'viewer'] as const;
type Role = (typeof ROLES)[number];

for (const driver of testDrivers()) {
  describe(`health engine API (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    let web: Peer;
    const cookies = {} as Record<Role, string>;

    const call = async (
      role: Role,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(url + path, {
        method,
        headers: {
          accept: 'application/json',
          cookie: cookies[role],
          origin: new URL(url).origin, // as the web app's fetch sends it (the CSRF check reads it)
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };
    const checksOf = async (canaryId: string) =>
      (
        await db.query<any>(
          `SELECT id, name, type, status, endpoint, labels, deleted_at, last_transition_time FROM checks WHERE canary_id = $1 ORDER BY name`,
          [canaryId],
        )
      ).rows;

    beforeAll(async () => {
      db = await driver.open();
      web = await startHttp();
      // these tests read fresh answers after writing behind the engine's back: no TTL (summary-cache.test.ts)
      ({ app, url } = await startApp(db, { summaryCacheTtlMs: 0 }));
      for (const role of ROLES) {
        const identity = await createIdentity(db, {
          traits: { email: `${role}@health.test`, name: { first: role, last: 'Tester' } },
          roles: [role],
        });
        const { token } = await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 });
        cookies[role] = `${SESSION_COOKIE}=${token}`;
      }
      await app.engines.start();
    });
    afterAll(async () => {
      await app?.close();
      await web?.close();
      await db?.dispose();
    });

    let canaryId: string;
    let okId: string;
    let failingId: string;

    it('turns a canary written through /api/db into checks, one per spec entry', async () => {
      const created = await call(
        'editor',
        'POST',
        '/api/db/canaries',
        {
          name: 'shop',
          namespace: 'web',
          labels: { team: 'payments' },
          schedule: '@every 1h',
          spec: {
            http: [
              { name: 'home', url: `${web.url}/ok`, responseCodes: [200], labels: { tier: 'edge' } },
              { name: 'checkout', url: `${web.url}/status/503`, responseCodes: [200] },
            ],
            tcp: [{ name: 'port', endpoint: `127.0.0.1:${web.port}` }],
          },
        },
        { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
      );
      expect(created.status).toBe(201);
      canaryId = created.body.id;
      // the write reloads the scheduler, whose canary source syncs the checks before the answer
      // is sent: the caller's next read lists them (the health page refetches right after a save)
      expect(await checksOf(canaryId)).toHaveLength(3);
      const listed = await call('viewer', 'GET', `/api/db/checks?canary_id=eq.${canaryId}&select=name`);
      expect(listed.body).toHaveLength(3);
      const checks = await checksOf(canaryId);
      expect(checks.map((c: any) => [c.name, c.type, c.status])).toEqual([
        ['checkout', 'http', null],
        ['home', 'http', null],
        ['port', 'tcp', null],
      ]);
      const home = checks.find((c: any) => c.name === 'home');
      expect(home.labels).toEqual({ team: 'payments', tier: 'edge' });
      expect(home.endpoint).toBe(`${web.url}/ok`);
      okId = home.id;
      failingId = checks.find((c: any) => c.name === 'checkout').id;
    });

    it('Run Now: commanders, editors and admins may; responders and viewers get 403', async () => {
      for (const role of ['viewer', 'responder'] as const) {
        const r = await call(role, 'POST', `/api/canary/run/check/${okId}`);
        expect(r.status, role).toBe(403);
        expect(r.body.message).toBe('Forbidden: you are not allowed to run checks');
      }
      const ok = await call('commander', 'POST', `/api/canary/run/check/${okId}`);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ id: okId, status: 'healthy', pass: true, error: null });
      expect(ok.body.message).toMatch(/^200 OK in \d+ms$/);
      const bad = await call('editor', 'POST', `/api/canary/run/check/${failingId}`);
      expect(bad.body).toMatchObject({
        status: 'unhealthy',
        error: 'expected response code [200] but got 503 Service Unavailable',
      });
      expect((await call('admin', 'POST', '/api/canary/run/check/not-a-uuid')).status).toBe(400);
      const missing = await call('admin', 'POST', '/api/canary/run/check/00000000-0000-0000-0000-0000000000ff');
      expect(missing).toMatchObject({ status: 404, body: { error: 'check not found' } });

      const [checkout] = (await checksOf(canaryId)).filter((c: any) => c.id === failingId);
      expect(checkout.status).toBe('unhealthy');
      expect(checkout.last_transition_time).not.toBeNull();
    });

    it("serves the history through /api/db/check_statuses with the seeds' filters and counts", async () => {
      await call('admin', 'POST', `/api/canary/run/check/${failingId}`);
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const r = await call(
        'viewer',
        'GET',
        `/api/db/check_statuses?check_id=eq.${failingId}&time=gt.${since}&status=eq.0&duration=gte.0&order=time.desc&limit=1&offset=0`,
        undefined,
        {
          prefer: 'count=exact',
        },
      );
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe('0-0/2');
      expect(r.body[0]).toMatchObject({
        status: false,
        error: 'expected response code [200] but got 503 Service Unavailable',
        message: '503 Service Unavailable',
      });
      const healthy = await call('viewer', 'GET', `/api/db/check_statuses?check_id=eq.${failingId}&status=eq.1`);
      expect(healthy.body).toEqual([]);
      // history is written by the engine only
      expect(
        (
          await call('admin', 'POST', '/api/db/check_statuses', {
            check_id: failingId,
            time: new Date().toISOString(),
            status: true,
          })
        ).status,
      ).toBe(405);
    });

    it('publishes check.failed and check.passed on transitions, once each', async () => {
      const events = async () =>
        (
          await db.query<any>(
            `SELECT name, properties FROM event_queue WHERE properties->>'check_id' = $1 ORDER BY created_at`,
            [failingId],
          )
        ).rows;
      expect((await events()).map((e: any) => e.name)).toEqual(['check.failed']);
      // the fix: 503 becomes an accepted answer
      const patched = await call('editor', 'PATCH', `/api/db/canaries?id=eq.${canaryId}`, {
        spec: {
          http: [
            { name: 'home', url: `${web.url}/ok`, responseCodes: [200], labels: { tier: 'edge' } },
            { name: 'checkout', url: `${web.url}/status/503`, responseCodes: [200, 503] },
          ],
          tcp: [{ name: 'port', endpoint: `127.0.0.1:${web.port}` }],
        },
      });
      expect(patched.status).toBe(204);
      const run = await call('commander', 'POST', `/api/canary/run/check/${failingId}`);
      expect(run.body.status).toBe('healthy');
      const list = await events();
      expect(list.map((e: any) => e.name)).toEqual(['check.failed', 'check.passed']);
      expect(list[1].properties).toMatchObject({
        check_id: failingId,
        canary_id: canaryId,
        status: 'healthy',
        previous: 'unhealthy',
        name: 'checkout',
      });
      await call('commander', 'POST', `/api/canary/run/check/${failingId}`);
      expect(await events()).toHaveLength(2);
    });

    it('summarises checks over a time range, filtered by labels, and graphs one check', async () => {
      const r = await call('viewer', 'GET', '/api/canary/api/summary?start=1h');
      expect(r.status).toBe(200);
      const rows = r.body.checks_summary.filter((c: any) => c.canary_id === canaryId);
      const checkout = rows.find((c: any) => c.id === failingId);
      expect(checkout).toMatchObject({
        canary_name: 'shop',
        namespace: 'web',
        status: 'healthy',
        agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
        uptime: { passed: 2, failed: 2 },
      });
      expect(checkout.latency.p95).toEqual(expect.any(Number));
      expect(checkout.latency.rolling1h).toEqual(expect.any(Number));
      expect(checkout.next_runtime).not.toBeNull();
      const edge = await call(
        'viewer',
        'GET',
        `/api/canary/api/summary?start=15m&labels=${encodeURIComponent('tier=edge')}`,
      );
      expect(edge.body.checks_summary.map((c: any) => c.name)).toEqual(['home']);
      const notEdge = await call(
        'viewer',
        'GET',
        `/api/canary/api/summary?start=15m&labels=${encodeURIComponent('team=payments,!tier=edge')}`,
      );
      expect(notEdge.body.checks_summary.map((c: any) => c.name)).toEqual(['checkout', 'port']);
      const bad = await call('viewer', 'GET', '/api/canary/api/summary?start=yesterday');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^start must be a duration such as 1h/);
      expect(Object.keys(bad.body.errors)).toEqual(['start']);

      const g = await call('viewer', 'GET', `/api/canary/api/graph?check=${failingId}&start=1h&count=300`);
      expect(g.status).toBe(200);
      expect(g.body).toMatchObject({ bucket_seconds: 12, source: 'raw' });
      const total = g.body.status.reduce((a: number, p: any) => a + p.passed + p.failed, 0);
      expect(total).toBe(4);
      expect((await call('viewer', 'GET', '/api/canary/api/graph?start=1h')).body).toEqual({
        statusCode: 400,
        code: 'invalid_query',
        error: 'Bad Request',
        message: 'check is required (the check id)',
        errors: { check: 'check is required (the check id)' },
      });
      expect((await call('viewer', 'GET', `/api/canary/api/graph?check=${failingId}&count=5000`)).status).toBe(400);
    });

    // PGlite has one connection: a test transaction holding a lock would hold every request.
    it.skipIf(driver.name !== 'pg')(
      'answers identical summary requests in flight together with one computation',
      async () => {
        const text = (path: string, role: Role = 'viewer') =>
          fetch(url + path, { headers: { cookie: cookies[role] } }).then((r) => r.text());
        // hold the summary statement behind a lock until both requests have arrived
        let release!: () => void;
        let locked!: () => void;
        const isLocked = new Promise<void>((r) => (locked = r));
        const holding = db.transaction(async (tx) => {
          await tx.query('LOCK TABLE canaries IN ACCESS EXCLUSIVE MODE');
          locked();
          await new Promise<void>((r) => (release = r));
        });
        await isLocked;
        const first = text('/api/canary/api/summary?start=2h');
        await new Promise((r) => setTimeout(r, 150));
        const second = text('/api/canary/api/summary?start=2h', 'admin');
        const other = text('/api/canary/api/summary?start=3h');
        await new Promise((r) => setTimeout(r, 150));
        release();
        await holding;
        const [a, b, c] = await Promise.all([first, second, other]);
        // one answer, byte for byte: the window of the first request and its measured duration
        expect(b).toBe(a);
        expect(JSON.parse(a).checks_summary.length).toBeGreaterThan(0);
        // another question is answered on its own, and nothing is kept once answered
        expect(JSON.parse(c).start).not.toBe(JSON.parse(a).start);
        await new Promise((r) => setTimeout(r, 5));
        expect(JSON.parse(await text('/api/canary/api/summary?start=2h')).end).not.toBe(JSON.parse(a).end);
      },
    );

    it('runs canaries on their schedule and records each run in job history', async () => {
      const created = await call(
        'admin',
        'POST',
        '/api/db/canaries',
        {
          name: 'fast',
          schedule: '@every 1s',
          spec: { tcp: [{ name: 'web port', endpoint: `127.0.0.1:${web.port}` }] },
        },
        { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
      );
      const id = created.body.id;
      await expect
        .poll(
          async () =>
            (
              await db.query<any>(
                `SELECT count(*)::int AS n FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1`,
                [id],
              )
            ).rows[0].n,
          { timeout: 8000 },
        )
        .toBeGreaterThanOrEqual(2);
      const jobs = await db.query<any>(
        `SELECT status, success_count, error_count, details FROM job_history WHERE resource_id = $1 AND name = 'CanaryRun' AND status <> 'RUNNING'`,
        [id],
      );
      expect(jobs.rows[0]).toMatchObject({ status: 'SUCCESS', success_count: 1, error_count: 0, details: {} });
      // soft-deleting the canary stops it and its checks leave the dashboard
      await call('admin', 'PATCH', `/api/db/canaries?id=eq.${id}`, { deleted_at: new Date().toISOString() });
      await expect
        .poll(async () => (await checksOf(id)).every((c: any) => c.deleted_at !== null), { timeout: 5000 })
        .toBe(true);
      const summary = await call('viewer', 'GET', '/api/canary/api/summary?start=1h');
      expect(summary.body.checks_summary.some((c: any) => c.canary_id === id)).toBe(false);
    });

    /** A canary on '@every 1s' through /api/db: its id and first finished CanaryRun. */
    const runOnSchedule = async (name: string, spec: Record<string, unknown>) => {
      const created = await call(
        'admin',
        'POST',
        '/api/db/canaries',
        { name, schedule: '@every 1s', spec },
        { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as string;
      await expect
        .poll(
          async () =>
            (
              await db.query<any>(
                `SELECT count(*)::int AS n FROM job_history WHERE resource_id = $1 AND name = 'CanaryRun' AND status <> 'RUNNING'`,
                [id],
              )
            ).rows[0].n,
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0);
      const job = await db.query<any>(
        `SELECT status, success_count, error_count, details FROM job_history
         WHERE resource_id = $1 AND name = 'CanaryRun' AND status <> 'RUNNING' ORDER BY time_start LIMIT 1`,
        [id],
      );
      return { id, job: job.rows[0] };
    };
    const stop = (id: string) =>
      call('admin', 'PATCH', `/api/db/canaries?id=eq.${id}`, { deleted_at: new Date().toISOString() });

    it("records a run with failing checks as WARNING (some failed) or FAILED (all failed), with counts and the failing checks' messages", async () => {
      const closed = `127.0.0.1:${await closedPort()}`;
      const mixed = await runOnSchedule('mixed', {
        http: [
          { name: 'home', url: `${web.url}/ok`, responseCodes: [200] },
          { name: 'checkout', url: `${web.url}/status/503`, responseCodes: [200] },
        ],
        tcp: [{ name: 'queue port', endpoint: closed }],
      });
      expect(mixed.job).toMatchObject({ status: 'WARNING', success_count: 1, error_count: 2 });
      expect(mixed.job.details.errors).toEqual({
        checkout: 'expected response code [200] but got 503 Service Unavailable',
        'queue port': expect.stringMatching(/refused/),
      });
      await stop(mixed.id);

      const down = await runOnSchedule('all down', { tcp: [{ name: 'queue port', endpoint: closed }] });
      expect(down.job).toMatchObject({ status: 'FAILED', success_count: 0, error_count: 1 });
      expect(down.job.details.errors).toEqual({ 'queue port': expect.stringMatching(/refused/) });
      await stop(down.id);
    });

    it("stores a check's output with NUL bytes safely: the canary's other checks keep their results, Run Now answers", async () => {
      const run = await runOnSchedule('binary', {
        http: [
          { name: 'binary body', url: `${web.url}/nul`, display: { expr: 'body' } },
          {
            name: 'binary json',
            url: `${web.url}/nul-json`,
            display: { expr: 'json.value' },
            test: { expr: 'json.value == "x"' },
          },
        ],
        tcp: [{ name: 'web port', endpoint: `127.0.0.1:${web.port}` }],
      });
      expect(run.job).toMatchObject({ status: 'WARNING', success_count: 2, error_count: 1 });
      const stored = await db.query<any>(
        `SELECT c.name, s.status, s.message, s.error FROM check_statuses s JOIN checks c ON c.id = s.check_id
         WHERE c.canary_id = $1 ORDER BY c.name, s.time LIMIT 3`,
        [run.id],
      );
      expect(stored.rows).toEqual([
        { name: 'binary body', status: true, message: 'bin\\0ary', error: null },
        { name: 'binary json', status: false, message: 'a\\0b', error: 'test failed: json.value == "x"' },
        { name: 'web port', status: true, message: expect.any(String), error: null },
      ]);
      // Run Now on the binary check answers with what it stored
      const id = (await db.query<any>(`SELECT id FROM checks WHERE canary_id = $1 AND name = 'binary body'`, [run.id]))
        .rows[0].id;
      const now = await call('editor', 'POST', `/api/canary/run/check/${id}`);
      expect(now.status).toBe(200);
      expect(now.body).toMatchObject({ pass: true, message: 'bin\\0ary' });
      await stop(run.id);
    });

    it('soft-deletes checks that leave the spec and keeps the others with their history', async () => {
      await call('editor', 'PATCH', `/api/db/canaries?id=eq.${canaryId}`, {
        spec: { http: [{ name: 'checkout', url: `${web.url}/status/503`, responseCodes: [200, 503] }] },
      });
      await expect
        .poll(async () => (await checksOf(canaryId)).filter((c: any) => !c.deleted_at).map((c: any) => c.name), {
          timeout: 5000,
        })
        .toEqual(['checkout']);
      const checkout = (await checksOf(canaryId)).find((c: any) => c.name === 'checkout' && !c.deleted_at);
      expect(checkout.id).toBe(failingId);
    });
  });
}
