/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { vacuumHotTables } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { syncPendingCanaries } from '#server/health/sync.ts';
import { checksSummaryRows } from '#server/health/summary.ts';
import { startHttp, type Peer } from './peers.ts';

/**
 * Issue 24: the summary on a busy embedded database.
 * - identical requests share one computation while it runs, and its answer for the TTL
 *   (WATCHDECK_SUMMARY_CACHE_TTL); a status change this process records (a flip, a Run Now)
 *   shows at once, a run written by another process within the TTL;
 * - the feed read in slices (PGlite) is the feed read in one statement, row for row;
 * - the maintenance job (PGlite) vacuums the hot tables on its schedule, in job history.
 */
const TTL_MS = 1500;

for (const driver of testDrivers()) {
  describe(`health summary cache and maintenance (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    let web: Peer;
    let cookie = '';
    let checkIds: string[] = [];
    /** summary statements run against the history (each() calls), counted */
    let computations = 0;

    const summary = async (query = 'start=1h') => {
      const r = await fetch(`${url}/api/canary/api/summary?${query}`, { headers: { cookie } });
      expect(r.status).toBe(200);
      return r.text();
    };

    beforeAll(async () => {
      db = await driver.open();
      web = await startHttp();
      // three canaries of two HTTP checks against a real local peer
      await db.query(
        `INSERT INTO canaries (name, namespace, schedule, spec)
         SELECT 'cache-' || g, 'test', '@every 1h', jsonb_build_object('http', jsonb_build_array(
           jsonb_build_object('name', 'ok ' || g, 'url', $1::text || '/ok'),
           jsonb_build_object('name', 'broken ' || g, 'url', $1::text || '/status/500')))
         FROM generate_series(1, 3) g`,
        [web.url],
      );
      await syncPendingCanaries(db, (err) => {
        throw err;
      });
      checkIds = (await db.query<{ id: string }>(`SELECT id FROM checks ORDER BY name`)).rows.map((r) => r.id);
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT c, now() - g * interval '1 minute', 10 + g, g % 4 <> 0 FROM unnest($1::uuid[]) c, generate_series(1, 30) g`,
        [checkIds],
      );
      const counting = new Proxy(db, {
        get(target, prop) {
          if (prop === 'each')
            return (...args: Parameters<Db['each']>) => {
              computations++;
              return target.each(...args);
            };
          const v = Reflect.get(target, prop, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      ({ app, url } = await startApp(counting, { summaryCacheTtlMs: TTL_MS, pgliteVacuumIntervalMs: 400 }));
      const identity = await createIdentity(db, {
        traits: { email: 'viewer@cache.test', name: { first: 'v', last: 'v' } },
        roles: ['admin'],
      });
      cookie = `${SESSION_COOKIE}=${(await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 })).token}`;
    }, 180_000); // migrations on PGlite take most of it on a busy machine
    afterAll(async () => {
      await app?.close();
      await web?.close();
      await db?.dispose();
    });

    it('answers identical requests with one computation, in flight and within the TTL', async () => {
      computations = 0;
      const answers = await Promise.all(Array.from({ length: 5 }, () => summary()));
      expect(new Set(answers).size).toBe(1);
      expect(JSON.parse(answers[0]).checks_summary).toHaveLength(6);
      expect(computations).toBe(1);
      // within the TTL: the same answer, byte for byte, no new computation
      expect(await summary()).toBe(answers[0]);
      expect(computations).toBe(1);
      // another question is answered on its own
      expect(JSON.parse(await summary('start=2h')).start).not.toBe(JSON.parse(answers[0]).start);
      expect(computations).toBe(2);
    });

    it('shows a run recorded behind its back within the TTL, and a Run Now at once', async () => {
      const first = await summary();
      const passedOf = (text: string) => JSON.parse(text).checks_summary.find((c: any) => c.id === checkIds[0]);
      const before = passedOf(first).uptime.passed + passedOf(first).uptime.failed;
      // another replica's run: not this process's engine, so the cached answer stands until the TTL ends
      await db.query(`INSERT INTO check_statuses (check_id, time, duration, status) VALUES ($1, now(), 5, true)`, [
        checkIds[0],
      ]);
      expect(await summary()).toBe(first);
      await new Promise((r) => setTimeout(r, TTL_MS + 50));
      const later = passedOf(await summary());
      expect(later.uptime.passed + later.uptime.failed).toBe(before + 1);

      // Run Now of a check whose peer answers 500: its status is in the very next answer
      const broken = JSON.parse(await summary()).checks_summary.find((c: any) => c.name.startsWith('broken'));
      const run = await fetch(`${url}/api/canary/run/check/${broken.id}`, {
        method: 'POST',
        headers: { cookie, origin: new URL(url).origin },
      });
      expect(run.status).toBe(200);
      const now = JSON.parse(await summary()).checks_summary.find((c: any) => c.id === broken.id);
      expect(now.status).toBe('unhealthy');
      expect(now.uptime.passed + now.uptime.failed).toBe(broken.uptime.passed + broken.uptime.failed + 1);
    });

    it('reads the feed in slices exactly as in one statement', async () => {
      const window = { start: new Date(Date.now() - 3_600_000), end: new Date() };
      const whole = await checksSummaryRows(db, window);
      const rows: string[] = [];
      const { checksSummaryEach } = await import('#server/health/summary.ts');
      await checksSummaryEach(db, window, {}, (json) => rows.push(json), 4);
      expect(rows).toEqual(whole.rows);
      expect(rows).toHaveLength(6);
    });

    it('vacuums and analyses the hot tables', async () => {
      const report = await vacuumHotTables(db);
      expect(report.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['checks', 'check_statuses']));
      const analysed = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_class WHERE relname = 'check_statuses' AND reltuples >= 180`,
      );
      expect(analysed.rows[0].n).toBe(1);
    });

    // PostgreSQL has autovacuum: the job is scheduled on PGlite only
    it(`records the scheduled VACUUM in job history ${driver.name === 'pglite' ? '' : '(not scheduled)'}`, async () => {
      await app.engines.start();
      if (driver.name === 'pglite') {
        await expect
          .poll(
            async () =>
              (
                await db.query<any>(
                  `SELECT status, success_count, details FROM job_history WHERE name = 'VacuumDatabase' AND status <> 'RUNNING' ORDER BY time_start LIMIT 1`,
                )
              ).rows[0],
            { timeout: 10_000 },
          )
          .toMatchObject({
            status: 'SUCCESS',
            details: { tables: expect.objectContaining({ checks: expect.any(String) }) },
          });
      } else {
        await new Promise((r) => setTimeout(r, 1000));
        const { rows } = await db.query<any>(
          `SELECT count(*)::int AS n FROM job_history WHERE name = 'VacuumDatabase'`,
        );
        expect(rows[0].n).toBe(0);
      }
    });
  });
}
