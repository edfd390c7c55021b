import { freshPostgresDb, percentile, settle, startServer, timedGet } from '../support.ts';
import { rollUp } from '#server/health/rollups.ts';
import type { Scenario } from './index.ts';

const CHECKS = 5000;
const HISTORY_HOURS = 24;
const STEP_MIN = 15;
const SAMPLES = 40;

/**
 * Issue 23's target: GET /metrics with 5,000 checks (500 canaries of 10, three labels each, a
 * day of runs every 15 minutes, rolled up) answers in under 100 ms, p95, scraped one at a time
 * as Prometheus does, from loopback. The answer must carry every check's gauges.
 */
export const metricsScrape: Scenario = {
  name: `GET /metrics, ${CHECKS} checks`,
  async run() {
    const bench = await freshPostgresDb();
    const { db } = bench;
    try {
      await db.query(
        `INSERT INTO canaries (name, namespace, schedule, labels, spec)
         SELECT 'canary-' || g, 'ns-' || (g % 10), '@every 15m', jsonb_build_object('env', CASE WHEN g % 2 = 0 THEN 'prod' ELSE 'staging' END), '{}'::jsonb
         FROM generate_series(1, $1::int / 10) g`,
        [CHECKS],
      );
      await db.query(
        `INSERT INTO checks (canary_id, name, namespace, type, endpoint, labels, status, last_runtime, last_transition_time)
         SELECT ca.id, ca.name || '-check-' || k, ca.namespace, 'http', 'http://127.0.0.1/' || k,
           ca.labels || jsonb_build_object('team', 'team-' || (k % 5), 'app.kubernetes.io/name', 'app-' || k),
           'healthy', date_trunc('minute', now()), now() - interval '2 days'
         FROM canaries ca CROSS JOIN generate_series(1, 10) k`,
      );
      // the last run of each check at its last_runtime (the latency gauge reads it), the rest before
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status)
         SELECT c.id, c.last_runtime - make_interval(mins => $1::int * s), 20 + (abs(hashtext(c.id::text || s)) % 400), abs(hashtext(c.id::text || s)) % 20 <> 0
         FROM checks c CROSS JOIN generate_series(0, $2::int * 60 / $1::int - 1) s`,
        [STEP_MIN, HISTORY_HOURS],
      );
      await rollUp(db);
      await settle(db);
      const server = await startServer(bench);
      try {
        const url = `${server.url}/metrics`;
        for (let i = 0; i < 5; i++) await timedGet(url, {});
        const answers = [];
        for (let i = 0; i < SAMPLES; i++) answers.push(await timedGet(url, {}));
        const bad = answers.filter((a) => a.status !== 200).length;
        const text = answers[0].bytes.toString('utf8');
        const gauges = (text.match(/^watchdeck_check_healthy\{/gm) ?? []).length;
        const uptimes = (text.match(/^watchdeck_check_uptime_ratio\{/gm) ?? []).length;
        const ms = answers.map((a) => a.ms);
        const p95 = percentile(ms, 95);
        return {
          driver: 'pg',
          result: `p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ${Math.round(answers[0].bytes.length / 1024)} KB, ${gauges} health and ${uptimes} uptime gauges, ${bad} errors`,
          target: 'p95 < 100 ms',
          met: p95 < 100 && bad === 0 && gauges === CHECKS && uptimes === CHECKS ? 'yes' : 'no',
        };
      } finally {
        await server.stop();
      }
    } finally {
      await bench.dispose();
    }
  },
};
