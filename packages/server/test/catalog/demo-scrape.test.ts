import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDrivers } from '../support/db.ts';
import type { Db } from '#server/db/index.ts';
import { demoTargets, seedDemo } from '#server/demo/seed.ts';
import { advanceDemoGitops, demoFileRoots } from '#server/demo/gitops.ts';
import { ScraperEngine } from '#server/catalog/engine.ts';

/**
 * The demo catalog comes from the real engine reading sources the repository ships: the cluster
 * and AWS exports (scraped once while seeding), the manifests folder, and the demo git
 * repository whose later commit gives real changes.
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
      engine = new ScraperEngine(db, {
        dataDir: join(dataDir, 'engine'),
        fileRoots: demoFileRoots(demoTargets({ port: 8080, dataDir }).gitopsRepo ?? ''),
      });
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

    it('scraped the cluster and AWS exports while seeding; a scheduled run finds them unchanged', async () => {
      const state = async () =>
        (
          await db.query<{ items: number; changes: number; links: number }>(
            `SELECT (SELECT count(*)::int FROM config_items WHERE scraper_id = $1 AND deleted_at IS NULL) AS items,
                    (SELECT count(*)::int FROM config_changes cc JOIN config_items ci ON ci.id = cc.config_id
                     WHERE ci.scraper_id = $1) AS changes,
                    (SELECT count(*)::int FROM config_relationships WHERE selector_id = 'manual') AS links`,
            [await scraper('kubernetes-prod-eu-1')],
          )
        ).rows[0];
      const before = await state();
      expect(before.items).toBe(113);
      expect(before.changes).toBe(0);
      const run = await engine.runNow(await scraper('kubernetes-prod-eu-1'));
      expect(run).toMatchObject({ status: 'SUCCESS', success_count: 113, error_count: 0 });
      expect(await state()).toEqual(before);
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
