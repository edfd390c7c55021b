import { freshPostgresDb, sharedFixture, startServer, type BenchDb, type BenchServer, settle } from '../support.ts';
import { rollUp } from '#server/health/rollups.ts';

export const SUMMARY_CHECKS = 5000;
export const HISTORY_DAYS = 30;
/** minutes between two recorded runs of a check in the fixture's history */
export const HISTORY_STEP_MIN = 15;

export interface HealthFixture {
  bench: BenchDb;
  server: BenchServer;
  /** a check with a year of history */
  yearCheck: string;
}

/**
 * 5,000 checks (500 canaries of 10) with 30 days of runs every 15 minutes (14.4M check_statuses
 * rows, 1 in 20 failing), one more check with a year of runs, rolled up by the real roll-up pass
 * (health/rollups.ts) as the housekeeping job would have. The server runs with its engines off
 * so the history stays as loaded.
 */
export function healthFixture(): Promise<HealthFixture> {
  return sharedFixture(
    'health',
    async () => {
      const bench = await freshPostgresDb();
      const { db } = bench;
      const started = Date.now();
      await db.query(
        `INSERT INTO canaries (name, namespace, schedule, labels, spec)
         SELECT 'canary-' || g, 'ns-' || (g % 10), '@every 15m', jsonb_build_object('env', CASE WHEN g % 2 = 0 THEN 'prod' ELSE 'staging' END), '{}'::jsonb
         FROM generate_series(1, $1::int / 10) g`,
        [SUMMARY_CHECKS],
      );
      await db.query(
        `INSERT INTO checks (canary_id, name, namespace, type, endpoint, labels, status, last_runtime, last_transition_time)
         SELECT ca.id, ca.name || '-check-' || k, ca.namespace, 'http', 'http://127.0.0.1/' || k,
           ca.labels || jsonb_build_object('team', 'team-' || (k % 5)), 'healthy', now(), now() - interval '2 days'
         FROM canaries ca CROSS JOIN generate_series(1, 10) k`,
      );
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT c.id, now() - make_interval(mins => $1::int * s), 20 + (abs(hashtext(c.id::text || s)) % 400), abs(hashtext(c.id::text || s)) % 20 <> 0
         FROM checks c CROSS JOIN generate_series(0, $2::int * 24 * 60 / $1::int - 1) s`,
        [HISTORY_STEP_MIN, HISTORY_DAYS],
      );
      const year = await db.query<{ id: string }>(
        `WITH ca AS (INSERT INTO canaries (name, spec) VALUES ('year-canary', '{}') RETURNING id)
         INSERT INTO checks (canary_id, name, type) SELECT id, 'year-check', 'http' FROM ca RETURNING id`,
      );
      const yearCheck = year.rows[0].id;
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT $1, now() - make_interval(mins => 15 * s), 20 + s % 300, s % 30 <> 0 FROM generate_series(0, 365 * 96 - 1) s`,
        [yearCheck],
      );
      await rollUp(db);
      await settle(db);
      process.stderr.write(`health fixture loaded in ${Math.round((Date.now() - started) / 1000)} s\n`);
      const server = await startServer(bench);
      return { bench, server, yearCheck };
    },
    async ({ bench, server }) => {
      await server.stop();
      await bench.dispose();
    },
  );
}
