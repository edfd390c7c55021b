/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import { startAgentMode } from '#server/agents/mode.ts';
import { callers, waitFor } from '../playbooks/support.ts';

/**
 * A push the upstream refuses for good (here a scraped item whose name is longer than the
 * upstream takes: 400) is parked on the agent with the upstream's answer (agent_push_parked, an
 * AgentPushParked job, pushed upstream too), and the rows beside and behind it move on.
 */
for (const driver of testDrivers()) {
  describe(`agent mode parks what the upstream refuses for good (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url = '';
    const docs = mkdtempSync(join(tmpdir(), 'watchdeck-parking-'));

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db));
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
      rmSync(docs, { recursive: true, force: true });
    });

    it('parks the refused row, stores the others, and is not held back by it', async () => {
      const { call } = await callers(db, url, { ed: 'editor' });
      const agent = (await call('ed', 'POST', '/api/agent/generate', { name: 'parker' })).body;
      const doc = (name: string, replicas: number) => JSON.stringify({ kind: 'Service', name, replicas });
      writeFileSync(join(docs, 'good.json'), doc('good', 1));
      writeFileSync(join(docs, 'huge.json'), doc('x'.repeat(70_000), 1));
      const scraperId = (
        await db.query<{ id: string }>(
          `INSERT INTO config_scrapers (name, agent_id, schedule, spec) VALUES ('docs', $1, '@every 2s', $2) RETURNING id`,
          [
            agent.id,
            JSON.stringify({
              file: [{ paths: [`${docs}/*.json`], format: 'json', type: '$.kind', id: '$.name', name: '$.name' }],
            }),
          ],
        )
      ).rows[0].id;

      const local = await openDb({ dataDir: 'memory://' });
      await migrate(local);
      const agentApp = await buildApp({
        config: { ...loadConfig({ LOG_LEVEL: 'silent' }), demoData: false, scrapeRoots: [docs] },
        db: local,
      });
      await agentApp.ready();
      await agentApp.engines.start();
      const mode = startAgentMode({
        db: local,
        upstream: url,
        token: agent.access_token,
        log: agentApp.log,
        reload: () => agentApp.engines.scheduler.reload(),
        version: 'test',
        hostname: 'parking-test',
        onFatal: () => {},
      });
      try {
        const upstreamItems = async () =>
          (
            await db.query<any>(`SELECT name, config FROM config_items WHERE scraper_id = $1 ORDER BY name`, [
              scraperId,
            ])
          ).rows;
        await waitFor('the good item upstream', async () => (await upstreamItems()).length > 0, 90_000);
        const parked = await waitFor(
          'the huge item parked',
          async () => {
            const r = await local.query<any>(`SELECT tbl, row, error FROM agent_push_parked`);
            return r.rows.length ? r.rows : undefined;
          },
          30_000,
        );
        expect(parked).toHaveLength(1);
        expect(parked[0].tbl).toBe('config_items');
        expect(parked[0].row.name).toHaveLength(70_000);
        expect(parked[0].error).toMatch(/^400 /);
        expect((await upstreamItems()).map((i) => i.name)).toEqual(['good']);
        // recorded as a failed job on the agent, which reaches the upstream's job history too
        const job = (await local.query<any>(`SELECT status, details FROM job_history WHERE name = 'AgentPushParked'`))
          .rows;
        expect(job).toHaveLength(1);
        expect(job[0].status).toBe('FAILED');
        await waitFor('the job upstream', async () => {
          const r = await db.query(`SELECT 1 FROM job_history WHERE name = 'AgentPushParked' AND agent_id = $1`, [
            agent.id,
          ]);
          return r.rows.length > 0;
        });

        // what comes after it still arrives: a change of the good item, and no second parking
        writeFileSync(join(docs, 'good.json'), doc('good', 4));
        await waitFor('the change upstream', async () => (await upstreamItems())[0]?.config?.replicas === 4, 60_000);
        const changes = await db.query<any>(
          `SELECT c.summary FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1`,
          [scraperId],
        );
        expect(changes.rows.map((c) => c.summary)).toEqual(['replicas: 1 -> 4']);
        expect((await local.query<any>(`SELECT count(*)::int AS n FROM agent_push_parked`)).rows[0].n).toBe(1);
      } finally {
        mode.stop();
        await agentApp.close();
        await local.close();
      }
    }, 180_000);
  });
}
