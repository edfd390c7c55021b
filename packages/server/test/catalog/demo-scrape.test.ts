import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDrivers } from '../support/db.ts';
import type { Db } from '#server/db/index.ts';
import { demoTargets, seedDemo } from '#server/demo/seed.ts';
import { advanceDemoGitops } from '#server/demo/gitops.ts';
import { ScraperEngine } from '#server/catalog/engine.ts';

/**
 * The demo catalog's scraped part comes from the real engine reading sources the repository
 * ships: the manifests folder, and the demo git repository whose later commit gives real changes.
 */
for (const driver of testDrivers()) {
  describe(`demo catalog scrapers (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let dataDir: string;
    let engine: ScraperEngine;
    const scraper = async (name: string) =>
      (await db.query<{ id: string }>(`SELECT id FROM config_scrapers WHERE name = $1`, [name])).rows[0].id;

    beforeAll(async () => {
      db = await driver.open();
      dataDir = mkdtempSync(join(tmpdir(), 'demo-catalog-'));
      await seedDemo(db, { force: true, targets: demoTargets({ port: 8080, dataDir }) });
      engine = new ScraperEngine(db, { dataDir: join(dataDir, 'engine') });
    }, 180_000);
    afterAll(async () => {
      await db?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('scrapes the shipped manifests', async () => {
      const run = await engine.runNow(await scraper('demo-manifests'));
      expect(run?.status).toBe('SUCCESS');
      const { rows } = await db.query<{ type: string; name: string; health: string | null; namespace: string }>(
        `SELECT type, name, health, tags->>'namespace' AS namespace FROM config_items
         WHERE scraper_id = $1 ORDER BY type, name`,
        [await scraper('demo-manifests')],
      );
      expect(rows).toContainEqual({ type: 'Deployment', name: 'storefront', health: 'healthy', namespace: 'shop' });
      expect(rows).toContainEqual({ type: 'Deployment', name: 'orders', health: 'warning', namespace: 'shop' });
      expect(rows.length).toBe(6);
    });

    it('reads the demo git repository, and its next commit becomes changes', async () => {
      const repo = demoTargets({ port: 8080, dataDir }).gitopsRepo!;
      expect(await advanceDemoGitops(repo)).toBe(1);
      // not due yet: no second commit within the step
      expect(await advanceDemoGitops(repo)).toBe(1);
      const id = await scraper('demo-gitops');
      const first = await engine.runNow(id);
      expect(first?.status).toBe('SUCCESS');
      expect(await advanceDemoGitops(repo, 0)).toBe(2);
      const second = await engine.runNow(id);
      expect(
        (second?.details as { scrape_summary: Record<string, { updated: number }> }).scrape_summary.Deployment.updated,
      ).toBe(1);
      const { rows } = await db.query<{ summary: string; change_type: string }>(
        `SELECT cc.summary, cc.change_type FROM config_changes cc JOIN config_items ci ON ci.id = cc.config_id
         WHERE ci.scraper_id = $1`,
        [id],
      );
      expect(rows).toEqual([
        {
          change_type: 'diff',
          summary:
            'spec.replicas: 3 -> 5, spec.template.spec.containers[0].image: ghcr.io/example/payments-api:1.8.0 -> ghcr.io/example/payments-api:1.9.0',
        },
      ]);
    });
  });
}
