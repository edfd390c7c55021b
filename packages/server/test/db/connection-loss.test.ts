import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, migrate, type Db } from '#server/db/index.ts';

/**
 * Issue 12 point 3: a dropped PostgreSQL connection must not take the server down. Backends are
 * terminated (pg_terminate_backend) under load and while a transaction is open, and a cluster the
 * test owns is stopped and started again; the server keeps answering afterwards. PostgreSQL only:
 * PGlite has no connections to lose.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A database of its own on the test server, and its URL. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `watchdeck_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** `watchdeck serve` in a child process: the real CLI, so a crash is the process exiting. */
async function startServer(
  databaseUrl: string,
  dataDir: string,
): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      AUTH: 'none',
      WATCHDECK_DEMO_DATA: 'false',
      WATCHDECK_DATA_DIR: dataDir,
      WATCHDECK_WEB_DIR: join(dataDir, 'no-web'),
      WATCHDECK_DB_POOL_SIZE: '6',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url, log: () => out };
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${out}`);
}

async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  const exited = new Promise((r) => child.once('exit', r));
  if ((await Promise.race([exited, sleep(15_000).then(() => 'timeout')])) === 'timeout') child.kill('SIGKILL');
}

/** Requests in a loop until stopped: reads, writes (transactions) and the health call. */
function load(url: string, workers: number) {
  let running = true;
  const statuses = new Map<number, number>();
  const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  const one = async (i: number) => {
    for (let k = 0; running; k++) {
      try {
        const r =
          (i + k) % 3 === 0
            ? await fetch(`${url}/api/db/incidents`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
                body: JSON.stringify({ title: `load ${i}-${k}`, description: 'terminate me' }),
              })
            : await fetch(`${url}/api/db/incidents?select=id,title,hypotheses(id)&limit=20`);
        count(r.status);
        await r.arrayBuffer();
      } catch {
        count(0); // no answer at all (the process is gone)
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, i) => one(i)));
  return {
    statuses,
    async stop() {
      running = false;
      await done;
    },
  };
}

async function answers(url: string): Promise<void> {
  const read = await fetch(`${url}/api/db/incidents?select=id&limit=1`);
  expect(read.status).toBe(200);
  const write = await fetch(`${url}/api/db/incidents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'after the storm' }),
  });
  expect(write.status).toBe(201);
}

describe.skipIf(!adminUrl)('losing PostgreSQL connections (PostgreSQL only)', () => {
  describe('in process', () => {
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let db: Db;
    let admin: pg.Client;
    beforeAll(async () => {
      fresh = await freshDatabase();
      db = await openDb({ databaseUrl: fresh.url, poolSize: 4 });
      await migrate(db);
      admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await db?.close();
      await fresh?.drop();
    });

    it('a backend terminated during an open transaction fails that transaction; the pool serves on', async () => {
      let pid = 0;
      const tx = db.transaction(async (q) => {
        pid = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await q.query(`INSERT INTO people (name) VALUES ('half-written')`);
        await sleep(400); // the transaction is open, its client checked out and idle
        await q.query('SELECT 1');
      });
      await sleep(150);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect(tx).rejects.toThrow(/terminat|not queryable/i);
      // nothing of it was kept, and the pool hands out working connections
      expect((await db.query(`SELECT count(*)::int AS n FROM people WHERE name = 'half-written'`)).rows).toEqual([
        { n: 0 },
      ]);
      for (let i = 0; i < 8; i++) expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('a read whose backend is terminated under it is sent again on a new connection', async () => {
      const read = db.readRow<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT pg_sleep(0.4)) s WHERE $1::int = 1`,
        [1],
      );
      await sleep(150);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep(0.4)%'`,
        [new URL(fresh.url).pathname.slice(1)],
      );
      expect(await read).toEqual({ n: 1 });
    });
  });

  describe('watchdeck serve', () => {
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let dataDir: string;
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    beforeAll(async () => {
      fresh = await freshDatabase();
      dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-connloss-'));
      server = await startServer(fresh.url, dataDir);
    }, 120_000);
    afterAll(async () => {
      await stopServer(server?.child);
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('survives backends terminated under load and inside open transactions, and answers afterwards', async () => {
      const { child, url } = server!;
      const dbName = new URL(fresh.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      const traffic = load(url, 12);
      let killed = 0;
      let inTransaction = 0;
      try {
        const until = Date.now() + 8000;
        for (let round = 0; Date.now() < until && child.exitCode === null; round++) {
          // mostly the backends of open transactions (their clients are checked out, between two
          // statements); every 50th round every backend of the database
          const r = await admin.query<{ state: string }>(
            `SELECT state FROM (SELECT pid, state, pg_terminate_backend(pid) AS t FROM pg_stat_activity
               WHERE datname = $1 AND pid <> pg_backend_pid() AND ($2 OR state = 'idle in transaction')) k`,
            [dbName, round % 50 === 0],
          );
          killed += r.rowCount ?? 0;
          inTransaction += r.rows.filter((x) => x.state === 'idle in transaction').length;
          await sleep(2);
        }
      } finally {
        await traffic.stop();
        await admin.end();
      }
      expect(child.exitCode, server!.log()).toBe(null);
      expect(killed).toBeGreaterThan(10);
      expect(inTransaction).toBeGreaterThan(0);
      // answers came all along; some requests failed with the connections, as a 503 or 500, never silence
      expect(traffic.statuses.get(200) ?? 0).toBeGreaterThan(10);
      expect(traffic.statuses.get(0) ?? 0).toBe(0);
      await answers(url);
      expect(child.exitCode).toBe(null);
    }, 120_000);
  });

  const pgBin = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
        .find((d) => existsSync(join(d, 'pg_ctl')))
    : undefined;

  describe.skipIf(!pgBin)('a PostgreSQL restart (a throw-away cluster the test owns)', () => {
    let dir: string;
    let port: number;
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    // initdb and postgres refuse to run as root: as root, the cluster belongs to the postgres user
    const asOwner = (cmd: string, args: string[]) =>
      process.getuid?.() === 0
        ? execFileSync('runuser', ['-u', 'postgres', '--', join(pgBin!, cmd), ...args], { stdio: 'pipe' })
        : execFileSync(join(pgBin!, cmd), args, { stdio: 'pipe' });
    const pgCtl = (...args: string[]) => asOwner('pg_ctl', ['-D', join(dir, 'data'), ...args]);
    const startCluster = () =>
      pgCtl(
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        '-l',
        join(dir, 'log'),
        '-w',
        '-t',
        '60',
        'start',
      );

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'watchdeck-cluster-'));
      if (process.getuid?.() === 0)
        chownSync(
          dir,
          Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
          Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
        );
      port = await freePort();
      asOwner('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
      startCluster();
      server = await startServer(`postgres://postgres@127.0.0.1:${port}/postgres`, join(dir, 'server'));
    }, 180_000);
    afterAll(async () => {
      await stopServer(server?.child);
      try {
        pgCtl('-m', 'immediate', '-w', 'stop');
      } catch {
        /* not running */
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers 503 while the database is down and serves again once it is back, without a restart of its own', async () => {
      const { child, url } = server!;
      await answers(url);
      pgCtl('-m', 'fast', '-w', 'stop');
      const down = await fetch(`${url}/api/db/incidents?select=id&limit=1`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ code: 'PGRST001' });
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(503);
      // a public route: the driver's error text (host, user, socket path) stays in the log
      expect(await health.json()).toEqual({ status: 'error', database: 'unreachable' });
      expect(child.exitCode).toBe(null);

      startCluster();
      const deadline = Date.now() + 30_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await fetch(`${url}/api/db/incidents?select=id&limit=1`)).status;
        if (status === 200) break;
        await sleep(250);
      }
      expect(status, server!.log()).toBe(200);
      await answers(url);
      expect(child.exitCode).toBe(null);
    }, 120_000);
  });
});
