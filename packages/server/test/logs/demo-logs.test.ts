/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { DEMO_LOG_PATHS } from '#server/demo/logs.ts';

/**
 * The demo's log backend reads real lines: once the engines start, the console's own requests
 * are written to the access log under the data directory, and the demo's file backend over those
 * files finds them through POST /api/logs.
 */
for (const driver of testDrivers()) {
  describe(`demo log files (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    let tmp: string;

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'watchdeck-demo-logs-'));
      db = await driver.open();
      ({ app, url } = await startApp(db, { dataDir: tmp, demoData: true, authMode: 'none' }));
      await app.engines.start();
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      rmSync(tmp, { recursive: true, force: true });
    });

    it("finds the console's own requests in the demo backend", async () => {
      const post = (path: string, body: unknown) =>
        fetch(url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url, prefer: 'return=representation' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      await fetch(`${url}/api/about?probe=demo-logs`);
      await fetch(`${url}/api/nope`);
      const backend = await post('/api/db/logging_backends', {
        name: 'app-logs',
        spec: { file: { paths: DEMO_LOG_PATHS } },
      });
      expect(backend.status).toBe(201);
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO components (name, logs) VALUES ('console', '[{"name":"app-logs","type":"file"}]') RETURNING id`,
      );
      let found: any[] = [];
      for (let i = 0; i < 50 && found.length < 2; i++) {
        const r = await post('/api/logs', { id: rows[0].id, query: '/api/' });
        expect(r.status).toBe(200);
        found = r.body.results.filter((l: any) => /GET \/api\/(about\?probe=demo-logs 200|nope 404)/.test(l.message));
        if (found.length < 2) await new Promise((res) => setTimeout(res, 100));
      }
      expect(found.map((l) => [l.labels.service, l.message.split(' ')[0]])).toEqual([
        ['console', 'WARN'],
        ['console', 'INFO'],
      ]);
    });
  });
}
