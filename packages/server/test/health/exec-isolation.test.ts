/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

/**
 * Issue 12 point 1, the attack as it was made: an editor writes a canary with exec checks
 * through /api/db and presses Run Now on a real `watchdeck serve` process that holds
 * DATABASE_URL, WATCHDECK_ADMIN_PASSWORD and the secret key. The scripts look for the server's
 * environment (/proc/$PPID/environ, /proc/1/environ, their own env), its process, its data
 * directory and the key file, and who they are. Before the sandbox each of them found it.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const adminUrl = process.env.TEST_DATABASE_URL;
const drivers = adminUrl ? (['pglite', 'pg'] as const) : (['pglite'] as const);

for (const driver of drivers) {
  describe(`exec checks cannot reach the server (${driver}, real server process)`, () => {
    let dir: string;
    let dataDir: string;
    let keyFile: string;
    let databaseUrl: string | undefined;
    let dbName: string | undefined;
    let server: ChildProcess;
    let url: string;
    let cookie: string;
    let log = '';
    const adminPassword = `admin-${randomBytes(9).toString('hex')}`;
    const secretKey = `key-${randomBytes(18).toString('hex')}`;

    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(url + path, {
        method,
        headers: {
          accept: 'application/json',
          cookie,
          // as the web app's same-origin calls do (browser protections)
          origin: url,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'watchdeck-exec-'));
      dataDir = join(dir, 'data');
      keyFile = join(dir, 'secret-key');
      writeFileSync(keyFile, `${secretKey}\n`, { mode: 0o600 });
      if (driver === 'pg') {
        dbName = `watchdeck_test_${randomBytes(6).toString('hex')}`;
        const a = new pg.Client({ connectionString: adminUrl });
        await a.connect();
        await a.query(`CREATE DATABASE ${dbName}`);
        await a.end();
        const u = new URL(adminUrl!);
        u.pathname = `/${dbName}`;
        databaseUrl = u.toString();
      }
      // The editor and its session, written before the server opens the database (PGlite has
      // one owner at a time).
      const db: Db = await openDb({ databaseUrl, dataDir });
      await migrate(db);
      const editor = await createIdentity(db, {
        traits: { email: 'editor@exec.test', name: { first: 'Ed', last: 'Itor' } },
        roles: ['editor'],
      });
      const { token } = await createSession(db, editor.id, { method: 'password', ttlMs: 3_600_000 });
      cookie = `${SESSION_COOKIE}=${token}`;
      await db.close();

      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          WATCHDECK_DATA_DIR: dataDir,
          WATCHDECK_DEMO_DATA: 'false',
          WATCHDECK_ADMIN_PASSWORD: adminPassword,
          WATCHDECK_SECRET_KEY_FILE: keyFile,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server.stdout!.on('data', (d) => (log += d));
      server.stderr!.on('data', (d) => (log += d));
      const deadline = Date.now() + 60_000;
      let up = false;
      while (!up && Date.now() < deadline && server.exitCode === null) {
        up = await fetch(`${url}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!up) await new Promise((r) => setTimeout(r, 200));
      }
      expect(up, log).toBe(true);
    }, 120_000);

    afterAll(async () => {
      if (server && server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
      if (dbName) {
        const a = new pg.Client({ connectionString: adminUrl });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await a.end();
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it("an editor's exec checks run as nobody and find no secret, no server process, no data directory", async () => {
      const scripts: Record<string, string> = {
        // the server's environment, through its /proc entry and through inheritance
        environ: `{ tr '\\0' '\\n' < /proc/$PPID/environ; tr '\\0' '\\n' < /proc/1/environ; env; } 2>/dev/null | grep -E '^(DATABASE_URL|WATCHDECK_|SMTP_URL)' | tr '\\n' ' '; echo end`,
        // the server's process, by pid and in ps
        process: `test -e /proc/${server.pid} && echo "pid ${server.pid} visible"; echo "$(ps -eo args | grep -c '[w]atchdeck.mjs') server processes"`,
        // the key file and the data directory (PGlite's files, secret.key)
        files: `cat ${keyFile} 2>/dev/null || echo "no key file"; ls ${dataDir} >/dev/null 2>&1 && echo "data dir visible" || echo "no data dir"`,
        whoami: 'id -u',
      };
      const created = await call(
        'POST',
        '/api/db/canaries',
        {
          name: 'probe',
          namespace: 'attack',
          schedule: '@every 1h',
          spec: { exec: Object.entries(scripts).map(([name, script]) => ({ name, script })) },
        },
        { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const checks = await call('GET', `/api/db/checks?canary_id=eq.${created.body.id}&select=id,name`);
      expect(checks.body).toHaveLength(4);
      const results: Record<string, any> = {};
      for (const c of checks.body) {
        const run = await call('POST', `/api/canary/run/check/${c.id}`);
        expect(run.status).toBe(200);
        results[c.name] = run.body;
      }
      const everything = JSON.stringify(results);
      for (const secret of [adminPassword, secretKey, ...(databaseUrl ? [databaseUrl] : [])])
        expect(everything).not.toContain(secret);

      expect(results.environ).toMatchObject({ pass: true, message: 'end' });
      expect(results.process).toMatchObject({ pass: true, message: '0 server processes' });
      expect(results.files).toMatchObject({ pass: true, message: 'no key file\nno data dir' });
      expect(results.whoami).toMatchObject({ pass: true, message: '65534' });
      expect(results.whoami.message).not.toBe(String(process.getuid!()));
    });
  });
}

for (const driver of testDrivers()) {
  describe(`exec checks without isolation (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    let cookie: string;
    let dir: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'watchdeck-nobwrap-'));
      db = await driver.open();
      // WATCHDECK_SANDBOX_BWRAP pointing nowhere: the machine without bubblewrap
      ({ app, url } = await startApp(db, {
        dataDir: join(dir, 'data'),
        sandbox: { bwrap: join(dir, 'no-bwrap'), memoryBytes: 64 << 20, maxProcesses: 16, maxOutputBytes: 4096 },
      }));
      const editor = await createIdentity(db, {
        traits: { email: 'editor@nobwrap.test', name: { first: 'Ed', last: 'Itor' } },
        roles: ['editor'],
      });
      cookie = `${SESSION_COOKIE}=${(await createSession(db, editor.id, { method: 'password', ttlMs: 3_600_000 })).token}`;
      await app.engines.start(); // syncs a new canary's checks
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('Run Now refuses the script with the reason and never runs it bare', async () => {
      const marker = join(dir, 'ran-bare');
      const headers = {
        cookie,
        'content-type': 'application/json',
        accept: 'application/vnd.pgrst.object+json',
        prefer: 'return=representation',
      };
      const created = await fetch(`${url}/api/db/canaries`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'bare',
          schedule: '@every 1h',
          spec: { exec: [{ name: 'touch', script: `touch ${marker}` }] },
        }),
      }).then((r) => r.json());
      const [check] = await fetch(`${url}/api/db/checks?canary_id=eq.${created.id}&select=id`, {
        headers: { cookie },
      }).then((r) => r.json());
      const run = await fetch(`${url}/api/canary/run/check/${check.id}`, {
        method: 'POST',
        headers: { cookie, origin: url },
      }).then((r) => r.json());
      expect(run).toMatchObject({ pass: false, status: 'unhealthy' });
      expect(run.error).toBe(
        `script isolation unavailable: install bubblewrap (apt-get install -y bubblewrap) and allow this user to create user namespaces; scripts are not run without isolation (${join(dir, 'no-bwrap')} not found)`,
      );
      expect(existsSync(marker)).toBe(false);
    });
  });
}
