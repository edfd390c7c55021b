import autocannon from 'autocannon';
import { startServer } from '../support.ts';
import { catalogFixture } from './catalog-fixture.ts';
import type { Scenario } from './index.ts';

const CONNECTIONS = 50;
const SECONDS = 10;
const ROUNDS = 2;

/**
 * Issue 23's target: the id lookup `GET /api/db/configs?id=eq.<id>` keeps at least 95% of its
 * throughput with metrics on (every answer timed by route and table) compared with a server of
 * the same database started with WATCHDECK_METRICS=false. The two take turns, never at once, so
 * they do not share the machine's cores.
 */
export const metricsOverhead: Scenario = {
  name: `GET /api/db/configs?id=eq.<id> with metrics on vs off, ${CONNECTIONS} connections`,
  async run() {
    const { bench, server: on, ids } = await catalogFixture();
    const off = await startServer(bench, { WATCHDECK_METRICS: 'false' });
    try {
      const measure = async (url: string, cookie: string, seconds: number) => {
        let i = 0;
        const r = await autocannon({
          url,
          connections: CONNECTIONS,
          duration: seconds,
          headers: { cookie },
          requests: [{ setupRequest: (req) => ({ ...req, path: `/api/db/configs?id=eq.${ids[i++ % ids.length]}` }) }],
        });
        return { rps: r.requests.average, errors: r.errors + r.non2xx };
      };
      // warm both, then alternate (off, on, off, on): a database that warms up during the
      // first run would otherwise favour whichever server runs second
      await measure(off.url, off.cookie, 2);
      await measure(on.url, on.cookie, 2);
      const offRun = { rps: 0, errors: 0 };
      const onRun = { rps: 0, errors: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [server, sum] of [
          [off, offRun],
          [on, onRun],
        ] as const) {
          const r = await measure(server.url, server.cookie, SECONDS / ROUNDS);
          sum.rps += r.rps / ROUNDS;
          sum.errors += r.errors;
        }
      }
      const ratio = onRun.rps / offRun.rps;
      return {
        driver: 'pg',
        result: `on ${Math.round(onRun.rps)} req/s, off ${Math.round(offRun.rps)} req/s (${(ratio * 100).toFixed(1)}%), ${onRun.errors + offRun.errors} errors`,
        target: 'on >= 95% of off',
        met: ratio >= 0.95 && onRun.errors + offRun.errors === 0 ? 'yes' : 'no',
      };
    } finally {
      await off.stop();
    }
  },
};
