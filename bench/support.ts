/**
 * What the scenarios share: a throw-away database, a real `watchdeck serve` in a child process
 * (so the load generator never shares an event loop with the server it measures) and a signed-in
 * session, because production requests pay for the session lookup too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { ensureFirstAdmin } from '#server/auth/first-run.ts';

/** The PostgreSQL server the HTTP scenarios run on; the targets are stated for PostgreSQL. */
function benchPostgresUrl(): string {
  return (
    process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

export interface BenchDb {
  db: Db;
  url?: string;
  /** PGlite: the data directory; the server opens it once the bench has closed its handle */
  dataDir?: string;
  dispose(): Promise<void>;
}

export type BenchDriver = 'pg' | 'pglite';

/**
 * A fresh PGlite database in a directory of its own, with the migrations applied: what
 * `npm start` runs. PGlite is one process's database, so startServer closes this handle before
 * the server opens the directory; read results through the server (or after stop(), reopened).
 */
async function freshPgliteDb(): Promise<BenchDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-bench-pglite-'));
  const db = await openDb({ dataDir });
  await migrate(db);
  // closed by startServer and again by dispose: once is what PGlite takes
  const close = db.close.bind(db);
  let closed: Promise<void> | undefined;
  db.close = () => (closed ??= close());
  return {
    db,
    dataDir,
    async dispose() {
      await db.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database of either driver. */
export function freshDriverDb(driver: BenchDriver): Promise<BenchDb> {
  return driver === 'pg' ? freshPostgresDb() : freshPgliteDb();
}

/** A fresh PostgreSQL database with the migrations applied, dropped on dispose. */
export async function freshPostgresDb(): Promise<BenchDb> {
  const adminUrl = benchPostgresUrl();
  const name = `watchdeck_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString() });
  await migrate(db);
  return {
    db,
    url: url.toString(),
    async dispose() {
      await db.close().catch(() => {});
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** PostgreSQL when it answers, else an in-memory PGlite (for engine-only scenarios). */
export async function freshDb(): Promise<BenchDb> {
  if (await postgresReachable()) return freshPostgresDb();
  const db = await openDb({ dataDir: 'memory://' });
  await migrate(db);
  return { db, dispose: () => db.close() };
}

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: benchPostgresUrl(), connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface BenchServer {
  url: string;
  /** Cookie header of a signed-in admin session. */
  cookie: string;
  /** the server process, for CPU readings from /proc */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Extra Node flags for the server process from BENCH_SERVER_NODE_FLAGS, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a scenario's server time goes (Node refuses
 * profiling flags in NODE_OPTIONS).
 */
function serverNodeFlags(): string[] {
  return (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
}

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  delete rest.DATABASE_URL;
  return rest;
}

/** Starts `watchdeck serve` on the given database (no demo data, engines off) and signs in. */
export async function startServer(bench: BenchDb, extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  if (!bench.url && !bench.dataDir) throw new Error('a bench database has a URL or a data directory');
  const port = await freePort();
  const dataDir = bench.dataDir ?? mkdtempSync(join(tmpdir(), 'watchdeck-bench-'));
  const adminEmail = 'bench@watchdeck.local';
  // PGlite: the admin and the session are made before the bench lets go of the directory
  let pgliteToken = '';
  if (bench.dataDir) {
    const quiet = { warn: () => {}, info: () => {} } as unknown as Parameters<typeof ensureFirstAdmin>[2];
    await ensureFirstAdmin(bench.db, { authMode: 'kratos', adminEmail, adminPassword: 'bench-password-123' }, quiet);
    const admin = await bench.db.query<{ id: string }>(`SELECT id FROM people WHERE email = $1`, [adminEmail]);
    pgliteToken = (await createSession(bench.db, admin.rows[0].id, { method: 'password', ttlMs: 3600_000 })).token;
    await bench.db.close();
  }
  // Warnings only by default, so the table stays readable. BENCH_LOG_LEVEL=info measures the
  // server as it runs by default, two log lines per request; those lines go to a file, as a
  // production server's would, not into the table.
  const logLevel = process.env.BENCH_LOG_LEVEL || 'warn';
  const stdout = logLevel === 'warn' ? 'inherit' : openSync(join(dataDir, 'server.log'), 'a');
  const child: ChildProcess = spawn(
    process.execPath,
    [...serverNodeFlags(), 'packages/server/bin/watchdeck.mjs', 'serve'],
    {
      env: {
        ...withoutDatabaseUrl(process.env),
        PORT: String(port),
        HOST: '127.0.0.1',
        ...(bench.url ? { DATABASE_URL: bench.url } : {}),
        WATCHDECK_DATA_DIR: dataDir,
        WATCHDECK_DEMO_DATA: 'false',
        WATCHDECK_ROLE: 'api',
        WATCHDECK_ADMIN_EMAIL: adminEmail,
        WATCHDECK_ADMIN_PASSWORD: 'bench-password-123',
        LOG_LEVEL: logLevel,
        NODE_ENV: 'production',
        ...extraEnv,
      },
      stdio: ['ignore', stdout, 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // PGlite checks its migrations on the one thread the bench shares the machine with: minutes, busy
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('server did not start within 300 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  let token = pgliteToken;
  if (!bench.dataDir) {
    const admin = await bench.db.query<{ id: string }>(`SELECT id FROM people WHERE email = $1`, [adminEmail]);
    if (admin.rows[0])
      token = (await createSession(bench.db, admin.rows[0].id, { method: 'password', ttlMs: 3600_000 })).token;
  }
  return {
    url,
    cookie: `${SESSION_COOKIE}=${token}`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      // a PGlite directory is the bench database's, removed by its dispose()
      if (!bench.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A catalog of `items` config items across 40 types, 4 scrapers and 3 agents, with one change
 * per item in the last 30 days and an open insight on every tenth. Plain SQL so 100k rows load
 * in seconds.
 */
export async function loadCatalog(db: Db, items: number): Promise<void> {
  await db.query(
    `INSERT INTO agents (id, name) SELECT gen_random_uuid(), 'bench-agent-' || g FROM generate_series(1, 3) g`,
  );
  await db.query(
    `INSERT INTO config_scrapers (name, spec) SELECT 'bench-scraper-' || g, '{}'::jsonb FROM generate_series(1, 4) g`,
  );
  await db.query(
    `WITH s AS (SELECT array_agg(id) a FROM config_scrapers), ag AS (SELECT array_agg(id) a FROM agents WHERE name LIKE 'bench-agent-%')
     INSERT INTO config_items (scraper_id, agent_id, type, config_class, name, status, health, tags, labels, config)
     SELECT s.a[1 + g % 4], ag.a[1 + g % 3],
            'Kubernetes::Kind' || (g % 40), CASE WHEN g % 2 = 0 THEN 'Pod' ELSE 'Deployment' END,
            'item-' || lpad(g::text, 7, '0'),
            (ARRAY['Running', 'Pending', 'Failed'])[1 + g % 3],
            (ARRAY['healthy', 'unhealthy', 'warning', 'unknown'])[1 + g % 4],
            jsonb_build_object('namespace', 'ns-' || (g % 25), 'cluster', 'bench'),
            jsonb_build_object('app', 'app-' || (g % 100)),
            jsonb_build_object('spec', jsonb_build_object('replicas', g % 5))
       FROM generate_series(1, $1::int) g, s, ag`,
    [items],
  );
  await db.query(
    `INSERT INTO config_changes (config_id, change_type, severity, summary, created_at)
     SELECT id, 'diff', 'info', 'bench change', now() - (random() * interval '29 days') FROM config_items`,
  );
  await db.query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status)
     SELECT id, 'bench', 'security', 'high', 'open' FROM config_items WHERE name LIKE '%0'`,
  );
  await settle(db);
}

/**
 * A freshly loaded fixture as a running system's tables would be: vacuumed (hint bits set,
 * visibility map current), analysed, and written out. Otherwise autovacuum, woken by the bulk
 * insert, and the checkpoint of the load's dirty pages run during the measurement (a summary
 * scenario measured right after loading 14M runs: p95 2-10 times its settled figure).
 */
export async function settle(db: Db): Promise<void> {
  await db.exec('VACUUM ANALYZE');
  await db.exec('CHECKPOINT');
}

const shared = new Map<string, { value: Promise<unknown>; dispose: (v: never) => Promise<void> }>();

/** One fixture for several scenarios (the 100k catalog takes a while to load); disposed at the end. */
export function sharedFixture<T>(key: string, create: () => Promise<T>, dispose: (v: T) => Promise<void>): Promise<T> {
  let entry = shared.get(key);
  if (!entry) {
    entry = { value: create(), dispose: dispose as (v: never) => Promise<void> };
    shared.set(key, entry);
  }
  return entry.value as Promise<T>;
}

export async function disposeSharedFixtures(): Promise<void> {
  for (const { value, dispose } of shared.values()) await dispose((await value) as never);
  shared.clear();
}

/**
 * One GET timed as HTTP load tools time a request (autocannon in the /api/db scenario): from
 * sending it to the answer's last byte, over a kept-alive node:http connection. The load
 * generator shares the machine's two cores with the server and PostgreSQL, so it does as little
 * as it can while others are measured: undici's fetch took this client about 35 ms of CPU per
 * 4 MB summary, node:http about 17 ms, and decoding the JSON another 30 ms. The body is only
 * decoded when `body` is read: a scenario that checks many large answers reads them after its
 * clock has stopped for all of them (see health-summary.ts).
 */
const keepAlive = new http.Agent({ keepAlive: true });

export interface TimedAnswer {
  ms: number;
  status: number;
  bytes: Buffer;
  /** the answer as JSON (or its text when it is not JSON), decoded on first read */
  readonly body: unknown;
}

export function timedGet(url: string, headers: Record<string, string>): Promise<TimedAnswer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(url, { agent: keepAlive, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - t0;
          const bytes = Buffer.concat(parts);
          let decoded: { value: unknown } | undefined;
          resolve({
            ms,
            status: res.statusCode ?? 0,
            bytes,
            get body() {
              if (!decoded) {
                const text = bytes.toString('utf8');
                try {
                  decoded = { value: JSON.parse(text) };
                } catch {
                  decoded = { value: text }; // not JSON: the check sees the text
                }
              }
              return decoded.value;
            },
          });
        });
      })
      .on('error', reject);
  });
}

/** Exact percentile of measured latencies (ms). */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
