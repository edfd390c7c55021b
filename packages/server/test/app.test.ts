import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from './support/db.ts';
import { startApp } from './support/app.ts';
import { version } from '../src/version.ts';

for (const driver of testDrivers()) {
  describe(`app basics (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: FastifyInstance;
    let url: string;
    const webDir = mkdtempSync(join(tmpdir(), 'watchdeck-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { webDir }));
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      rmSync(webDir, { recursive: true, force: true });
    });

    it('GET /api/about returns the version', async () => {
      const res = await fetch(`${url}/api/about`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ Version: version });
    });

    it('GET /api/health reports the database reachable', async () => {
      const res = await fetch(`${url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok', database: 'reachable' });
    });

    it('serves the SPA for deep links but 404s unknown API routes', async () => {
      const page = await fetch(`${url}/incidents/123`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toContain('id="root"');
      const api = await fetch(`${url}/api/nope`);
      expect(api.status).toBe(404);
      expect((await api.json()).message).toMatch(/not found/);
    });
  });
}

describe('graceful shutdown', () => {
  it('lets an in-flight request finish before the app closes', async () => {
    const [driver] = testDrivers();
    const db = await driver.open();
    const { buildApp } = await import('../src/app.ts');
    const { loadConfig } = await import('../src/config.ts');
    const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', AUTH: 'none' }), db });
    let arrived!: () => void;
    const requestArrived = new Promise<void>((r) => (arrived = r));
    app.get('/api/test-slow', async () => {
      arrived();
      await new Promise((r) => setTimeout(r, 300));
      return { done: true };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${url}/api/test-slow`).then((r) => r.json());
    await requestArrived; // close only once the request is being handled, however busy the machine
    const closed = app.close();
    expect(await inFlight).toEqual({ done: true });
    await closed;
    await expect(fetch(`${url}/api/about`)).rejects.toThrow();
    await db.dispose();
  });
});
