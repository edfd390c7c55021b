import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';

/**
 * Two servers on one database, both running their schedulers: every slot of a scraper's
 * schedule runs once (one job-history row per claimed slot), never twice.
 */
for (const driver of testDrivers()) {
  describe(`scheduled scraper runs across replicas (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    const apps: FastifyInstance[] = [];
    let work: string;
    let scraperId: string;

    beforeAll(async () => {
      db = await driver.open();
      work = mkdtempSync(join(tmpdir(), 'catalog-claims-'));
      writeFileSync(join(work, 'a.json'), '{"a": 1}');
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO config_scrapers (name, spec, schedule) VALUES ('every-second', $1::jsonb, '@every 1s') RETURNING id`,
        [JSON.stringify({ file: [{ paths: [`${work}/*.json`], format: 'json', icon: 'x', type: 'Doc' }] })],
      );
      scraperId = rows[0].id;
      for (let i = 0; i < 2; i++) {
        const { app } = await startApp(db, { dataDir: join(work, `data-${i}`), scrapeRoots: [work] });
        apps.push(app);
      }
      await Promise.all(apps.map((a) => a.engines.start()));
    }, 180_000);
    afterAll(async () => {
      for (const a of apps) await a.close();
      await db?.dispose();
      rmSync(work, { recursive: true, force: true });
    });

    it('runs each slot once with two engines', async () => {
      const deadline = Date.now() + 30_000;
      let runs = 0;
      while (Date.now() < deadline) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM job_history WHERE resource_id = $1 AND status <> 'RUNNING'`,
          [scraperId],
        );
        runs = rows[0].n;
        if (runs >= 4) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await Promise.all(apps.map((a) => a.engines.stop()));
      const { rows } = await db.query<{ runs: number; claims: number; items: number; statuses: string[] }>(
        `SELECT (SELECT count(*)::int FROM job_history WHERE resource_id = $1) AS runs,
           (SELECT count(*)::int FROM scheduler_claims WHERE job_key = 'config_scraper:' || $1) AS claims,
           (SELECT count(*)::int FROM config_items WHERE scraper_id = $1::uuid) AS items,
           (SELECT array_agg(DISTINCT status) FROM job_history WHERE resource_id = $1) AS statuses`,
        [scraperId],
      );
      expect(runs).toBeGreaterThanOrEqual(4);
      expect(rows[0].runs).toBe(rows[0].claims);
      expect(rows[0].items).toBe(1);
      expect(rows[0].statuses).toEqual(['SUCCESS']);
    }, 120_000);
  });
}
