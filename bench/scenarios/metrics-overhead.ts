import autocannon from 'autocannon';
import { startServer } from '../support.ts';
import { catalogFixture } from './catalog-fixture.ts';
import type { Scenario } from './index.ts';

const CONNECTIONS = 50;
const SECONDS = 10;

/**
 * Issue 23's target: the id lookup `GET /api/db/configs?id=eq.<id>` keeps at least 95% of its
 * throughput with metrics on (every answer timed by route and table) compared with a server of
 * the same database started with WATCHDECK_METRICS=false. The two run one after the other, each
 * warmed first, so they do not share the machine's cores.
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
      await measure(off.url, off.cookie, 2);
      const offRun = await measure(off.url, off.cookie, SECONDS);
      await measure(on.url, on.cookie, 2);
      const onRun = await measure(on.url, on.cookie, SECONDS);
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
