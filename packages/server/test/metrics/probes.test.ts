/**
 * /api/health/live and /api/health/ready over HTTP on both drivers: readiness waits for the
 * engines (when this process runs them) and migrations, and fails while the real CLI drains on
 * SIGTERM (WATCHDECK_SHUTDOWN_DRAIN) although requests are still answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

for (const driver of testDrivers()) {
  describe(`health probes (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    beforeAll(async () => {
      db = await driver.open();
      app = await startApp(db);
    });
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('live answers without a caller; ready waits for the engines, then says ready', async () => {
      expect(await get(`${app.url}/api/health/live`)).toEqual({ status: 200, body: { status: 'ok' } });
      const before = await get(`${app.url}/api/health/ready`);
      expect(before).toEqual({
        status: 503,
        body: {
          status: 'not ready',
          database: 'reachable',
          migrations: 'applied',
          engines: 'stopped',
          draining: false,
        },
      });
      await app.app.engines.start();
      const after = await get(`${app.url}/api/health/ready`);
      expect(after).toEqual({
        status: 200,
        body: { status: 'ready', database: 'reachable', migrations: 'applied', engines: 'started', draining: false },
      });
    });

    it('an api-only process is ready without engines; a database behind the code is not', async () => {
      const fresh = await driver.open();
      const { rows } = await fresh.query<{ name: string }>('SELECT max(name) AS name FROM schema_migrations');
      const api = await startApp(fresh, { role: 'api' });
      try {
        expect((await get(`${api.url}/api/health/ready`)).body).toMatchObject({
          status: 'ready',
          engines: 'not run here',
        });
        await fresh.query('DELETE FROM schema_migrations WHERE name = $1', [rows[0].name]);
        // a second app: the first remembers that all were applied once
        const again = await startApp(fresh, { role: 'api' });
        try {
          expect(await get(`${again.url}/api/health/ready`)).toMatchObject({
            status: 503,
            body: { status: 'not ready', migrations: 'pending' },
          });
        } finally {
          await again.app.close();
        }
      } finally {
        await api.app.close();
        await fresh.dispose();
      }
    });

    it('readiness fails once closing has begun', async () => {
      const other = await startApp(db, { role: 'api' });
      expect((await get(`${other.url}/api/health/ready`)).status).toBe(200);
      other.app.readiness.draining = true;
      expect(await get(`${other.url}/api/health/ready`)).toMatchObject({ status: 503, body: { draining: true } });
      expect((await get(`${other.url}/api/health/live`)).status).toBe(200);
      await other.app.close();
    });
  });

  describe(`watchdeck serve drains on SIGTERM (${driver.name})`, () => {
    it('answers ready 503 (live 200) for WATCHDECK_SHUTDOWN_DRAIN, then exits 0', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-drain-'));
      let databaseUrl = '';
      let dropDb: (() => Promise<void>) | undefined;
      const adminUrl = process.env.TEST_DATABASE_URL;
      if (driver.name === 'pg' && adminUrl) {
        const name = `watchdeck_test_${randomBytes(6).toString('hex')}`;
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        databaseUrl = url.toString();
        dropDb = async () => {
          const a = new pg.Client({ connectionString: adminUrl });
          await a.connect();
          await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await a.end();
        };
      }
      const port = await freePort();
      const child = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          HOST: '127.0.0.1',
          WATCHDECK_DATA_DIR: dataDir,
          WATCHDECK_DEMO_DATA: 'false',
          WATCHDECK_ADMIN_PASSWORD: 'drain test passphrase',
          WATCHDECK_SHUTDOWN_DRAIN: '3s',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const base = `http://127.0.0.1:${port}`;
      try {
        const deadline = Date.now() + 60_000;
        let ready = false;
        while (!ready && Date.now() < deadline && child.exitCode === null) {
          ready = await fetch(`${base}/api/health/ready`).then(
            (r) => r.status === 200,
            () => false,
          );
          if (!ready) await new Promise((r) => setTimeout(r, 200));
        }
        expect(ready, out).toBe(true);
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 500));
        // still serving, but no longer ready
        expect(await get(`${base}/api/health/ready`), out).toMatchObject({
          status: 503,
          body: { status: 'not ready', draining: true, database: 'reachable' },
        });
        expect((await get(`${base}/api/health/live`)).status).toBe(200);
        expect(child.exitCode).toBeNull();
        expect(await exited, out).toBe(0);
        expect(out).toContain('draining (readiness fails)');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
        await dropDb?.();
      }
    }, 120_000);
  });
}
