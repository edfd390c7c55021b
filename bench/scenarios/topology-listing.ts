/**
 * Issue 17's listing targets over a topology of 10,000 components (PostgreSQL, a real server):
 * GET /api/topology for the roots (the dashboard's home page: 20 cluster cards, each with its 9
 * namespaces nested) p95 < 150 ms, and a filtered flat list (a type and a health, flattened: a
 * few hundred components from every depth) p95 < 100 ms. Sorts and filters rotate as people click
 * through them. Loaded with generate_series, as the engine would leave it.
 */
import { readFileSync } from 'node:fs';
import {
  freshPostgresDb,
  percentile,
  settle,
  sharedFixture,
  startServer,
  timedGet,
  type BenchDb,
  type BenchServer,
} from '../support.ts';
import type { Scenario } from './index.ts';

const ROOTS = 20;
const NAMESPACES = 9; // per root
const LEAVES = 55; // per namespace: 20 + 180 + 9,900 = 10,100 components
const TOTAL = ROOTS + ROOTS * NAMESPACES + ROOTS * NAMESPACES * LEAVES;
const REQUESTS = 200;
const CONCURRENCY = 2;
const STATUSES = `ARRAY['healthy','unhealthy','warning','unknown','healthy','healthy']`;

interface TopologyFixture {
  bench: BenchDb;
  server: BenchServer;
}

function topologyFixture(): Promise<TopologyFixture> {
  return sharedFixture(
    'topology-listing',
    async () => {
      const bench = await freshPostgresDb();
      const { db } = bench;
      await db.query(`INSERT INTO teams (name) SELECT 'team-' || g FROM generate_series(0, 4) g`);
      await db.query(`INSERT INTO topologies (name, spec) VALUES ('bench', '{}')`);
      const props = (value: string) =>
        `jsonb_build_array(jsonb_build_object('name', 'cpu', 'value', ${value}, 'unit', '%', 'headline', true),
           jsonb_build_object('name', 'owner', 'text', 'ops'))`;
      const summary = `jsonb_build_object('checks', jsonb_build_object('healthy', 2, 'unhealthy', g % 2),
           'insights', jsonb_build_object('security', jsonb_build_object('high', g % 3)))`;
      await db.query(
        `INSERT INTO components (topology_id, path, name, type, status, labels, properties, summary)
         SELECT t.id, '', 'cluster-' || lpad(g::text, 2, '0'), 'Cluster', (${STATUSES})[1 + g % 6],
           jsonb_build_object('env', CASE WHEN g % 2 = 0 THEN 'prod' ELSE 'dev' END), ${props('g * 5 % 100')}, ${summary}
         FROM generate_series(1, ${ROOTS}) g, topologies t`,
      );
      await db.query(
        `INSERT INTO components (topology_id, parent_id, path, name, type, status, labels, properties, summary)
         SELECT r.topology_id, r.id, r.id::text, r.name || '-ns-' || g, 'Namespace', (${STATUSES})[1 + (g + length(r.name)) % 6],
           r.labels, ${props('g * 11 % 100')}, ${summary}
         FROM components r, generate_series(1, ${NAMESPACES}) g WHERE r.parent_id IS NULL`,
      );
      await db.query(
        `INSERT INTO components (topology_id, parent_id, path, name, type, status, labels, properties, summary, hidden)
         SELECT n.topology_id, n.id, n.path || '.' || n.id, n.name || '-' || g,
           (ARRAY['Pod','Service','Deployment','Database'])[1 + g % 4], (${STATUSES})[1 + (g * 7 + length(n.name)) % 6],
           n.labels || jsonb_build_object('app', 'app-' || (g % 10)), ${props('g * 13 % 100')}, ${summary}, g % 100 = 0
         FROM components n, generate_series(1, ${LEAVES}) g WHERE n.type = 'Namespace'`,
      );
      await db.query(
        `INSERT INTO team_components (team_id, component_id)
         SELECT t.id, c.id FROM components c JOIN teams t ON t.name = 'team-' || (length(c.name) + ascii(right(c.name, 1))) % 5
         WHERE c.type IN ('Cluster', 'Namespace')`,
      );
      await settle(db);
      const server = await startServer(bench);
      return { bench, server };
    },
    async ({ bench, server }) => {
      await server.stop();
      await bench.dispose();
    },
  );
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Latencies of REQUESTS GETs, CONCURRENCY at a time, after a warm-up, and the server's CPU per
 * request: on a machine shared with other work the latencies say how long a user waited, the CPU
 * how much of that was this server's own work.
 */
async function measure(server: BenchServer, url: (n: number) => string, check: (body: unknown) => string | undefined) {
  const cookie = server.cookie;
  const latencies: number[] = [];
  let errors = 0;
  let shape = '';
  const worker = async (start: number, count: number, warm: boolean) => {
    for (let n = start; n < count; n += CONCURRENCY) {
      const { ms, status, body } = await timedGet(url(n), { cookie });
      if (warm) continue;
      latencies.push(ms);
      const s = status === 200 ? check(body) : undefined;
      if (s === undefined) errors++;
      else shape = s;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => worker(k, 20, true)));
  const cpu0 = cpuSeconds(server.pid);
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => worker(k, REQUESTS, false)));
  const cpuMs = ((cpuSeconds(server.pid) - cpu0) * 1000) / REQUESTS;
  return { latencies, errors, shape, cpuMs };
}

type Listing = { components: { components?: unknown[] }[]; types: string[] };

export const topologyRootListing: Scenario = {
  name: `/api/topology roots over ${(TOTAL / 1000).toFixed(1)}k components`,
  async run() {
    const { server } = await topologyFixture();
    const sorts = [
      '',
      'sortBy=name',
      'sortBy=cpu&sortOrder=desc',
      'sortBy=updated_at&sortOrder=desc',
      'status=unhealthy',
    ];
    const { latencies, errors, shape, cpuMs } = await measure(
      server,
      (n) => `${server.url}/api/topology?${sorts[n % sorts.length]}`,
      (b) => {
        const body = b as Listing;
        if (!Array.isArray(body.components) || body.types.length !== 6) return undefined;
        const nested = body.components.reduce((k, c) => k + (c.components?.length ?? 0), 0);
        return `${body.components.length} roots, ${nested} nested`;
      },
    );
    const p95 = percentile(latencies, 95);
    return {
      driver: 'pg',
      result: `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${latencies.length} requests (${CONCURRENCY} at a time; last: ${shape}), server CPU ${cpuMs.toFixed(1)} ms/request, ${errors} errors`,
      target: 'p95 < 150 ms',
      met: p95 < 150 && errors === 0 ? 'yes' : 'no',
    };
  },
};

export const topologyFlatListing: Scenario = {
  name: `/api/topology filtered flat list over ${(TOTAL / 1000).toFixed(1)}k components`,
  async run() {
    const { server } = await topologyFixture();
    const types = ['Pod', 'Service', 'Deployment', 'Database'];
    const statuses = ['unhealthy', 'warning', 'unknown'];
    const { latencies, errors, shape, cpuMs } = await measure(
      server,
      (n) => {
        const q = new URLSearchParams({
          type: types[n % types.length],
          status: statuses[n % statuses.length],
          flatten: 'true',
        });
        if (n % 3 === 0) q.set('labels', 'env=prod');
        if (n % 5 === 0) q.set('sortBy', 'name');
        return `${server.url}/api/topology?${q}`;
      },
      (b) => {
        const body = b as Listing;
        if (!Array.isArray(body.components) || body.components.some((c) => c.components)) return undefined;
        return `${body.components.length} components`;
      },
    );
    const p95 = percentile(latencies, 95);
    return {
      driver: 'pg',
      result: `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${latencies.length} requests (${CONCURRENCY} at a time; last: ${shape}), server CPU ${cpuMs.toFixed(1)} ms/request, ${errors} errors`,
      target: 'p95 < 100 ms',
      met: p95 < 100 && errors === 0 ? 'yes' : 'no',
    };
  },
};
