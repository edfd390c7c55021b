import { percentile, timedGet, type TimedAnswer } from '../support.ts';
import { healthFixture, HISTORY_DAYS, SUMMARY_CHECKS } from './health-fixture.ts';
import type { Scenario } from './index.ts';

const REQUESTS = 60;
const CONCURRENCY = 2;

async function measure(
  url: string | (() => string),
  cookie: string,
  requests: number,
  check: (body: unknown) => boolean,
  before?: () => Promise<void>,
) {
  const latencies: number[] = [];
  const answers: TimedAnswer[] = [];
  const worker = async (n: number, warm: boolean) => {
    for (let i = n; i < requests; i += CONCURRENCY) {
      if (before && !warm) await before();
      const answer = await timedGet(typeof url === 'string' ? url : url(), { cookie });
      if (warm) continue;
      latencies.push(answer.ms);
      answers.push(answer);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => worker(requests - 4 + k, true)));
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => worker(k, false)));
  // every answer is checked, once the clock has stopped for all of them (support.ts timedGet)
  const errors = answers.filter((a) => a.status !== 200 || !check(a.body)).length;
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), errors, n: latencies.length };
}

/**
 * A range read from roll-ups also reports its slower requests (health/summary.ts keeps a window's
 * roll-up part per process and roll-up pass): the first request of a range in the process
 * (start=29d, 28d, ...: each a new window), and requests that each follow a roll-up pass (the
 * watermark is moved before every one; the previous part answers while the new one is read in
 * the background). The target is judged on the steady requests, the dashboard's refreshes.
 */
const summaryScenario = (range: string, rollupCosts = false): Scenario => ({
  name: `health: GET /api/canary/api/summary?start=${range}, ${SUMMARY_CHECKS} checks with ${HISTORY_DAYS} days of history`,
  async run() {
    const { server, bench } = await healthFixture();
    const rows = (b: unknown) => ((b as { checks_summary?: unknown[] }).checks_summary ?? []).length;
    const ok = (b: unknown) => rows(b) >= SUMMARY_CHECKS;
    const r = await measure(`${server.url}/api/canary/api/summary?start=${range}`, server.cookie, REQUESTS, ok);
    let more = '';
    if (rollupCosts) {
      let days = 30;
      const first = await measure(() => `${server.url}/api/canary/api/summary?start=${--days}d`, server.cookie, 20, ok);
      const moved = async () =>
        void (await bench.db.query(`UPDATE check_rollup_state SET until = until + interval '1 second'`));
      const afterPass = await measure(
        `${server.url}/api/canary/api/summary?start=${range}`,
        server.cookie,
        30,
        ok,
        moved,
      );
      more =
        `; first request of a range: p50 ${first.p50.toFixed(0)} ms, p95 ${first.p95.toFixed(0)} ms` +
        `; right after a roll-up pass: p50 ${afterPass.p50.toFixed(0)} ms, p95 ${afterPass.p95.toFixed(0)} ms, ${first.errors + afterPass.errors} errors`;
    }
    return {
      driver: 'pg',
      result: `p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms over ${r.n} requests (${CONCURRENCY} at a time), ${r.errors} errors${more}`,
      target: 'p95 < 150 ms',
      met: r.p95 < 150 && r.errors === 0 ? 'yes' : 'no',
    };
  },
});

/** Issue 5's summary target, for the dashboard's default range and for the 30 days of history. */
export const healthSummary1h = summaryScenario('1h');
export const healthSummary30d = summaryScenario('30d', true);

/** Issue 5: a year range for one check (its drawer: summary and graph), under 50 ms. */
export const healthYearOneCheck: Scenario = {
  name: 'health: a year range for one check (summary?check_id=&start=1y and graph?check=&start=1y&count=300)',
  async run() {
    const { server, yearCheck } = await healthFixture();
    const s = await measure(
      `${server.url}/api/canary/api/summary?check_id=${yearCheck}&start=1y`,
      server.cookie,
      REQUESTS,
      (b) => {
        const row = (b as { checks_summary: { uptime: { passed: number } }[] }).checks_summary[0];
        return !!row && row.uptime.passed > 30_000;
      },
    );
    const g = await measure(
      `${server.url}/api/canary/api/graph?check=${yearCheck}&start=1y&count=300`,
      server.cookie,
      REQUESTS,
      (b) => {
        const points = (b as { status: unknown[] }).status;
        return points.length > 150 && points.length <= 300;
      },
    );
    return {
      driver: 'pg',
      result: `summary p95 ${s.p95.toFixed(1)} ms, graph p95 ${g.p95.toFixed(1)} ms, ${s.errors + g.errors} errors`,
      target: 'p95 < 50 ms each',
      met: s.p95 < 50 && g.p95 < 50 && s.errors + g.errors === 0 ? 'yes' : 'no',
    };
  },
};
