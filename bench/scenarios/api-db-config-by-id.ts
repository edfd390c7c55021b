import autocannon from 'autocannon';
import { catalogFixture } from './catalog-fixture.ts';
import type { Scenario } from './index.ts';

const CONNECTIONS = 50;
const SECONDS = 10;

/**
 * Issue 2's target: `GET /api/db/configs?id=eq.<id>` at 5,000 requests/s or more with 50
 * connections, p99 under 20 ms, on PostgreSQL, signed in. Ids rotate over 2,000 random items.
 */
export const apiDbConfigById: Scenario = {
  name: `GET /api/db/configs?id=eq.<id>, ${CONNECTIONS} connections`,
  async run() {
    const { server, ids } = await catalogFixture();
    let i = 0;
    const path = () => `/api/db/configs?id=eq.${ids[i++ % ids.length]}`;
    // warm the connection pool and the schema cache before measuring
    await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: 2,
      headers: { cookie: server.cookie },
      requests: [{ setupRequest: (r) => ({ ...r, path: path() }) }],
    });
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { cookie: server.cookie },
      requests: [{ setupRequest: (r) => ({ ...r, path: path() }) }],
    });
    const rps = Math.round(result.requests.average);
    const errors = result.errors + result.non2xx;
    return {
      driver: 'pg',
      result: `${rps} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${errors} errors`,
      target: '>= 5000 req/s, p99 < 20 ms',
      met: rps >= 5000 && result.latency.p99 < 20 && errors === 0 ? 'yes' : 'no',
    };
  },
};
