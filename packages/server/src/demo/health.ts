import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { LOCAL_AGENT_ID } from '@watchdeck/core';
import { did, insertRows, ago, DAY, type SeedContext, type Row } from './util.ts';
import { person } from './people.ts';

/**
 * The demo's canaries. Demo data never pretends: these checks watch things this console can rely
 * on wherever it runs (its own HTTP endpoints on the configured port, its database, the files it
 * ships), and a handful fail on purpose against a port nothing listens on, each named
 * "deliberately failing: ...". No history is seeded: every result on the dashboard, in job
 * history and in the event queue is what the health engine observed since the server started.
 * Designed outcome of every run: the checks named "deliberately failing" fail, all others pass
 * (test/health/demo-run.test.ts runs each canary and holds the demo to it).
 */
export interface DemoTargets {
  /** the console as its own checks reach it, e.g. http://127.0.0.1:8080 */
  consoleUrl: string;
  /** host:port of the PostgreSQL server behind DATABASE_URL; unset on the embedded PGlite */
  databaseHostPort?: string;
  /** the migrations folder this installation ships (a folder check watches it) */
  migrationsDir: string;
  /** the demo's git repository that a catalog file scraper reads (demo/gitops.ts) */
  gitopsRepo?: string;
}

import { demoGitopsRepo } from './gitops.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** Directories the demo's folder checks read (added to the check roots when demo data is on). */
export const demoCheckRoots = (): string[] => [MIGRATIONS_DIR];

/** The targets for a server listening on `host`:`port` (0.0.0.0 and :: are reached on loopback). */
export function demoTargets(o: { port: number; host?: string; databaseUrl?: string; dataDir?: string }): DemoTargets {
  const host = !o.host || ['0.0.0.0', '::', 'localhost'].includes(o.host) ? '127.0.0.1' : o.host;
  const targets: DemoTargets = {
    consoleUrl: `http://${isIP(host) === 6 ? `[${host}]` : host}:${o.port}`,
    migrationsDir: MIGRATIONS_DIR,
    gitopsRepo: demoGitopsRepo(o.dataDir),
  };
  if (o.databaseUrl) {
    try {
      const u = new URL(o.databaseUrl);
      // a socket directory (postgres:///db?host=/run/postgresql) has no TCP port to watch
      if (u.hostname) targets.databaseHostPort = `${u.hostname}:${u.port || '5432'}`;
    } catch {
      // not a URL (a key=value connection string): no port check
    }
  }
  return targets;
}

/** A port nothing listens on (tcpmux, unassigned in practice): the deliberate failures' target. */
const CLOSED = '127.0.0.1:1';

interface CheckDef {
  key: string;
  name: string;
  type: string;
  description: string;
  severity: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  icon?: string;
}

interface CanaryDef {
  key: string;
  name: string;
  namespace: string;
  schedule: string;
  labels: Record<string, string>;
  checks: CheckDef[];
}

export const DELIBERATE = 'deliberately failing: ';

/** Canaries with their checks, for one set of targets. */
function demoCanaries(t: DemoTargets): CanaryDef[] {
  const hostPort = new URL(t.consoleUrl).host;
  const database: CheckDef[] = [
    {
      key: 'database-reachable',
      name: 'database reachable from the console',
      type: 'http',
      description: 'The console answers /api/health with its database reachable',
      severity: 'critical',
      labels: { component: 'database' },
      spec: { url: `${t.consoleUrl}/api/health`, responseCodes: [200], test: { expr: "json.database == 'reachable'" } },
    },
  ];
  if (t.databaseHostPort) {
    database.push({
      key: 'database-port',
      name: 'database port',
      type: 'tcp',
      description: 'The PostgreSQL server of DATABASE_URL accepts connections',
      severity: 'critical',
      labels: { component: 'database' },
      spec: { endpoint: t.databaseHostPort, thresholdMillis: 1000 },
      icon: 'postgres',
    });
  }
  database.push({
    key: 'postgres-closed',
    name: `${DELIBERATE}PostgreSQL on a closed port`,
    type: 'postgres',
    description: 'Fails on purpose: nothing listens on 127.0.0.1:1',
    severity: 'low',
    labels: { component: 'demo' },
    spec: { url: `postgres://watchdeck@${CLOSED}/watchdeck`, query: 'SELECT 1', results: 1 },
  });
  return [
    {
      key: 'console',
      name: 'console',
      namespace: 'default',
      schedule: '@every 1m',
      labels: { env: 'demo', tier: 'app' },
      checks: [
        {
          key: 'api-health',
          name: 'console api health',
          type: 'http',
          description: 'GET /api/health answers 200 with status ok',
          severity: 'critical',
          labels: { component: 'api' },
          spec: { url: `${t.consoleUrl}/api/health`, responseCodes: [200], test: { expr: "json.status == 'ok'" } },
        },
        {
          key: 'api-latency',
          name: 'console api latency',
          type: 'http',
          description: 'GET /api/health answers within 500 ms',
          severity: 'medium',
          labels: { component: 'api' },
          spec: { url: `${t.consoleUrl}/api/health`, responseCodes: [200], thresholdMillis: 500 },
        },
        {
          key: 'version',
          name: 'console version',
          type: 'http',
          description: 'GET /api/about names the running version',
          severity: 'low',
          labels: { component: 'api' },
          spec: {
            url: `${t.consoleUrl}/api/about`,
            responseCodes: [200],
            test: { expr: "json.Version != ''" },
            display: { expr: "'version ' + json.Version" },
          },
        },
        {
          key: 'port',
          name: 'console port',
          type: 'tcp',
          description: `The console listens on ${hostPort}`,
          severity: 'high',
          labels: { component: 'api' },
          spec: { endpoint: hostPort, thresholdMillis: 1000 },
        },
        {
          key: 'migrations',
          name: 'console migrations',
          type: 'folder',
          description: 'The database migrations this installation ships are in place',
          severity: 'low',
          labels: { component: 'files' },
          spec: { path: t.migrationsDir, minCount: 1, filter: { regex: '\\.sql$' } },
        },
      ],
    },
    {
      key: 'database',
      name: 'database',
      namespace: 'data',
      schedule: '@every 2m',
      labels: { env: 'demo', tier: 'data' },
      checks: database,
    },
    {
      key: 'deliberate-failures',
      name: 'deliberate-failures',
      namespace: 'infra',
      schedule: '@every 2m',
      labels: { env: 'demo', tier: 'network' },
      checks: [
        {
          key: 'tcp-closed',
          name: `${DELIBERATE}nothing listens on port 1`,
          type: 'tcp',
          description: 'Fails on purpose: a TCP connection to 127.0.0.1:1 is refused',
          severity: 'medium',
          labels: { component: 'demo' },
          spec: { endpoint: CLOSED },
        },
        {
          key: 'tls-closed',
          name: `${DELIBERATE}TLS on a closed port`,
          type: 'tls',
          description: 'Fails on purpose: no TLS server on 127.0.0.1:1',
          severity: 'medium',
          labels: { component: 'demo' },
          spec: { endpoint: CLOSED, maxSSLExpiry: 14 },
        },
        {
          key: 'dns-closed',
          name: `${DELIBERATE}DNS server on a closed port`,
          type: 'dns',
          description: 'Fails on purpose: no DNS server answers on 127.0.0.1:1',
          severity: 'low',
          labels: { component: 'demo' },
          spec: { server: '127.0.0.1', port: 1, query: 'localhost', querytype: 'A', timeout: '3s' },
        },
      ],
    },
  ];
}

export const canaryId = (key: string): string => did('canary', key);
export const checkId = (key: string): string => did('check', key);

/**
 * A check's entry in its canary's spec carries what the dashboard shows (description, icon,
 * labels, severity, owner), so the engine's re-sync of a canary keeps the demo checks as seeded.
 */
function specEntry(k: CheckDef): Record<string, unknown> {
  return {
    name: k.name,
    ...k.spec,
    description: k.description,
    icon: k.icon ?? k.type,
    labels: k.labels,
    severity: k.severity,
  };
}

/** Canaries and their checks (as the engine's sync would make them), without any result. */
export async function seedHealth(ctx: SeedContext, targets: DemoTargets): Promise<void> {
  const canaries: Row[] = [];
  const checks: Row[] = [];
  demoCanaries(targets).forEach((c, ci) => {
    const spec: Record<string, unknown> = { schedule: c.schedule };
    for (const k of c.checks) ((spec[k.type] ??= []) as unknown[]).push(specEntry(k));
    canaries.push({
      id: canaryId(c.key),
      agent_id: LOCAL_AGENT_ID,
      name: c.name,
      namespace: c.namespace,
      labels: c.labels,
      spec,
      schedule: c.schedule,
      source: 'UI',
      icon: null,
      created_by: person(ci % 2 ? 'liam' : 'ava'),
      created_at: ago(ctx, (30 - ci * 5) * DAY),
      updated_at: ago(ctx, (6 - ci) * DAY),
    });
    for (const k of c.checks) {
      checks.push({
        id: checkId(k.key),
        canary_id: canaryId(c.key),
        agent_id: LOCAL_AGENT_ID,
        name: k.name,
        namespace: c.namespace,
        description: k.description,
        type: k.type,
        icon: k.icon ?? k.type,
        endpoint: endpointOf(k),
        severity: k.severity,
        labels: { ...c.labels, ...k.labels },
        spec: specEntry(k),
        owner: null,
        created_at: ago(ctx, (30 - ci * 5) * DAY),
        updated_at: ago(ctx, (6 - ci) * DAY),
      });
    }
  });
  await insertRows(ctx, 'canaries', canaries);
  await insertRows(ctx, 'checks', checks);
}

function endpointOf(k: CheckDef): string {
  const s = k.spec as Record<string, string>;
  if (k.type === 'dns') return `${s.query} @${s.server}`;
  return s.url ?? s.endpoint ?? s.path;
}
