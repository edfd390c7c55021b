import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';

/**
 * Two servers on one database, both running their schedulers: every slot of a topology's
 * schedule runs once (one job-history row per claimed slot), never twice, and the components
 * are written once.
 */
for (const driver of testDrivers()) {
  describe(`scheduled topology runs across replicas (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    const apps: FastifyInstance[] = [];
    let topologyId: string;

    beforeAll(async () => {
      db = await driver.open();
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO topologies (name, spec, schedule) VALUES ('every-second', $1::jsonb, '@every 1s') RETURNING id`,
        [JSON.stringify({ components: [{ name: 'root', components: [{ name: 'a' }, { name: 'b' }] }] })],
      );
      topologyId = rows[0].id;
      for (let i = 0; i < 2; i++) apps.push((await startApp(db)).app);
      await Promise.all(apps.map((a) => a.engines.start()));
    }, 180_000);
    afterAll(async () => {
      for (const a of apps) await a.close();
      await db?.dispose();
    });

    it('runs each slot once with two engines', async () => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM job_history WHERE resource_id = $1 AND status <> 'RUNNING'`,
          [topologyId],
        );
        if (rows[0].n >= 4) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await Promise.all(apps.map((a) => a.engines.stop()));
      const { rows } = await db.query<{ runs: number; claims: number; components: number; statuses: string[] }>(
        `SELECT (SELECT count(*)::int FROM job_history WHERE resource_id = $1) AS runs,
           (SELECT count(*)::int FROM scheduler_claims WHERE job_key = 'topology:' || $1) AS claims,
           (SELECT count(*)::int FROM components WHERE topology_id = $1::uuid) AS components,
           (SELECT array_agg(DISTINCT status) FROM job_history WHERE resource_id = $1) AS statuses`,
        [topologyId],
      );
      expect(rows[0].runs).toBeGreaterThanOrEqual(4);
      expect(rows[0].runs).toBe(rows[0].claims);
      expect(rows[0].components).toBe(3);
      expect(rows[0].statuses).toEqual(['SUCCESS']);
    }, 120_000);
  });
}
