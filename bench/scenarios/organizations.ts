import autocannon from 'autocannon';
import { openDb, type Db } from '#server/db/index.ts';
import { freshPostgresDb, startServer, type BenchServer } from '../support.ts';
import type { Scenario } from './index.ts';

/** BENCH_ORGS organisations (default 100, the figure) on one PostgreSQL. */
const ORGS = Number(process.env.BENCH_ORGS || 100);
const CHECKS = 50;
const CONNECTIONS = 50;
const SECONDS = 10;

/** 50 checks under one canary, written as the health engine's tables hold them. */
async function loadChecks(db: Db): Promise<string[]> {
  const canary = await db.query<{ id: string }>(
    `INSERT INTO canaries (name, spec) VALUES ('bench', '{}') RETURNING id`,
  );
  const r = await db.query<{ id: string }>(
    `INSERT INTO checks (canary_id, type, name) SELECT $1, 'http', 'check-' || g FROM generate_series(1, $2::int) g RETURNING id`,
    [canary.rows[0].id, CHECKS],
  );
  return r.rows.map((x) => x.id);
}

async function call(server: BenchServer, method: string, path: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      cookie: server.cookie,
      origin: server.url,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** ms from POST /api/organizations until it reads ready */
async function provisionOne(server: BenchServer, slug: string): Promise<number> {
  const started = performance.now();
  await call(server, 'POST', '/api/organizations', { name: slug, slug });
  for (;;) {
    const org = await call(server, 'GET', `/api/organizations/${slug}`);
    if (org.status === 'ready') return performance.now() - started;
    if (org.status === 'failed') throw new Error(`${slug} failed to provision`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** autocannon requests that rotate over the ids: GET <path>?id=eq.<id> */
function idLookups(path: string, ids: string[]) {
  let i = 0;
  return [{ setupRequest: (r: object) => ({ ...r, path: `${path}?id=eq.${ids[i++ % ids.length]}` }) }];
}

/**
 * Issue 21's targets: with 100 organisations of 50 checks each on one PostgreSQL, provisioning
 * one takes under 5 s, and one organisation's id lookup throughput (GET /org/{slug}/api/db/checks
 * ?id=eq.<id>, its bearer token) is within 80% of the single-tenant figure (the root backend's
 * own /api/db/checks, a bearer token of its own). One process serves them all (WATCHDECK_HOSTED_MAX_ORGS
 * keeps 10 backends open).
 */
export const organizationsScale: Scenario = {
  name: `hosted: ${ORGS} organisations x ${CHECKS} checks, provisioning and id lookups`,
  async run() {
    const bench = await freshPostgresDb();
    const server = await startServer(bench, {
      WATCHDECK_HOSTED: 'true',
      WATCHDECK_HOSTED_MAX_ORGS: '10',
      ...(process.env.WATCHDECK_HOSTED_ORG_POOL_SIZE
        ? { WATCHDECK_HOSTED_ORG_POOL_SIZE: process.env.WATCHDECK_HOSTED_ORG_POOL_SIZE }
        : {}),
    });
    try {
      const rootIds = await loadChecks(bench.db);
      const times: number[] = [];
      for (let n = 1; n <= ORGS; n++) {
        const slug = `bench-${n}`;
        times.push(await provisionOne(server, slug));
        const orgDb = await openDb({ databaseUrl: bench.url, poolSize: 1, searchPath: `org_bench_${n}` });
        try {
          await loadChecks(orgDb);
        } finally {
          await orgDb.close();
        }
      }
      const last = `bench-${ORGS}`;
      const sw = await call(server, 'POST', `/api/organizations/${last}/switch`);
      const orgDb = await openDb({ databaseUrl: bench.url, poolSize: 1, searchPath: `org_bench_${ORGS}` });
      const orgIds = (await orgDb.query<{ id: string }>(`SELECT id FROM checks`)).rows.map((r) => r.id);
      await orgDb.close();

      const measure = async (path: string, headers: Record<string, string>, ids: string[]) => {
        const opts = { url: server.url, connections: CONNECTIONS, headers, requests: idLookups(path, ids) };
        await autocannon({ ...opts, duration: 2 }); // warm pools and prepared statements
        const r = await autocannon({ ...opts, duration: SECONDS });
        return { rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors + r.non2xx };
      };
      // both sides with a bearer token: the organisation's backend knows no cookie session, and
      // a token caller costs a lookup per request where a session is cached for a second
      const rootToken = (await call(server, 'POST', '/api/auth/tokens', { name: 'bench' })).token as string;
      const single = await measure('/api/db/checks', { authorization: `Bearer ${rootToken}` }, rootIds);
      const org = await measure(
        `/org/${last}/api/db/checks`,
        { authorization: `Bearer ${sw.token as string}` },
        orgIds,
      );
      times.sort((a, b) => a - b);
      const p50 = Math.round(times[Math.floor(times.length / 2)]);
      const max = Math.round(times[times.length - 1]);
      const ratio = single.rps ? org.rps / single.rps : 0;
      return {
        driver: 'pg',
        result:
          `provisioning p50 ${p50} ms, max ${max} ms; id lookups single-tenant ${single.rps} req/s ` +
          `(p99 ${single.p99} ms), organisation ${org.rps} req/s (p99 ${org.p99} ms, ${Math.round(ratio * 100)}%), ` +
          `${single.errors + org.errors} errors`,
        target: 'provisioning < 5 s; organisation >= 80% of single-tenant',
        met: max < 5000 && ratio >= 0.8 && single.errors + org.errors === 0 ? 'yes' : 'no',
      };
    } finally {
      await server.stop();
      await bench.dispose();
    }
  },
};
