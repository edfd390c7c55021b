/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { agentCommandLine, LOCAL_AGENT_ID } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { startHttp, type Peer } from '../health/peers.ts';

/**
 * Two processes: the upstream (this test's app, on the driver's database) and an agent started
 * with the installation dialog's command line, on its own PGlite. A canary assigned to the agent
 * runs there and its results arrive upstream stamped with the agent; the upstream goes away for a
 * while and comes back: the statuses of that while arrive, none twice; deleting the agent stops it
 * with the message.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const EVERY_S = 2;

for (const driver of testDrivers()) {
  describe(`agent mode against an upstream (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let port = 0;
    let url = '';
    let web: Peer;
    let cookie = '';
    let agent: ChildProcess | undefined;
    let output = '';
    let exited: Promise<number | null>;
    const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-agent-'));
    let agentId = '';
    let canaryId = '';
    let scraperId = '';
    let topologyId = '';
    // a directory of JSON documents a file scraper assigned to the agent reads
    const docs = join(dataDir, 'docs');
    const doc = (replicas: number) => JSON.stringify({ kind: 'Service', name: 'web', replicas });

    const start = async () => {
      app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'silent' }) }, db });
      url = await app.listen({ port, host: '127.0.0.1' });
      port = Number(new URL(url).port);
    };
    const statuses = async () =>
      (
        await db.query<{ time: Date }>(
          `SELECT s.time FROM check_statuses s JOIN checks c ON c.id = s.check_id
            WHERE c.canary_id = $1 AND c.agent_id = $2 ORDER BY s.time`,
          [canaryId, agentId],
        )
      ).rows.map((r) => new Date(r.time).getTime());
    const waitFor = async (what: string, ok: () => Promise<boolean>, ms: number) => {
      const deadline = Date.now() + ms;
      while (!(await ok())) {
        if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; agent said:\n${output.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    };

    beforeAll(async () => {
      db = await driver.open();
      web = await startHttp();
      await start();
      const identity = await createIdentity(db, {
        traits: { email: 'editor@agent-mode.test', name: { first: 'Ed', last: 'Itor' } },
        roles: ['editor'],
      });
      cookie = `${SESSION_COOKIE}=${(await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 })).token}`;
    });
    afterAll(async () => {
      agent?.kill('SIGKILL');
      await app?.close();
      await web?.close();
      await db?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('runs an assigned canary on the agent and pushes its results, stamped with the agent', async () => {
      const res = await fetch(`${url}/api/agent/generate`, {
        method: 'POST',
        headers: { cookie, origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'edge' }),
      });
      expect(res.status).toBe(201);
      const generated = (await res.json()) as { id: string; access_token: string };
      agentId = generated.id;
      canaryId = (
        await db.query<{ id: string }>(
          `INSERT INTO canaries (name, namespace, agent_id, schedule, spec) VALUES ('edge-web', 'edge', $1, $2, $3) RETURNING id`,
          [agentId, `@every ${EVERY_S}s`, JSON.stringify({ http: [{ name: 'home', url: `${web.url}/ok` }] })],
        )
      ).rows[0].id;

      mkdirSync(docs);
      writeFileSync(join(docs, 'web.json'), doc(2));
      scraperId = (
        await db.query<{ id: string }>(
          `INSERT INTO config_scrapers (name, namespace, agent_id, schedule, spec) VALUES ('edge-docs', 'edge', $1, $2, $3) RETURNING id`,
          [
            agentId,
            `@every ${EVERY_S}s`,
            JSON.stringify({
              file: [{ paths: [`${docs}/*.json`], format: 'json', type: '$.kind', id: '$.name', name: '$.name' }],
            }),
          ],
        )
      ).rows[0].id;

      topologyId = (
        await db.query<{ id: string }>(
          `INSERT INTO topologies (name, namespace, agent_id, schedule, spec) VALUES ('edge-map', 'edge', $1, $2, $3) RETURNING id`,
          [
            agentId,
            `@every ${EVERY_S}s`,
            JSON.stringify({ components: [{ name: 'root', components: [{ name: 'a' }] }] }),
          ],
        )
      ).rows[0].id;

      // the installation dialog's command line, run as shown
      const command = agentCommandLine({ upstream: url, token: generated.access_token });
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        WATCHDECK_DATA_DIR: dataDir,
        WATCHDECK_SCRAPE_ROOTS: docs,
        LOG_LEVEL: 'info',
        WATCHDECK_DEMO_DATA: 'false',
      };
      delete env.DATABASE_URL;
      agent = spawn('sh', ['-c', `exec ${command}`], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      agent.stdout!.on('data', (d) => (output += String(d)));
      agent.stderr!.on('data', (d) => (output += String(d)));
      exited = new Promise((r) => agent!.once('exit', (code) => r(code)));

      await waitFor('the first results upstream', async () => (await statuses()).length >= 2, 240_000);
      const [check] = (
        await db.query<any>(`SELECT agent_id, name, status FROM checks WHERE canary_id = $1`, [canaryId])
      ).rows;
      expect(check).toMatchObject({ agent_id: agentId, name: 'home', status: 'healthy' });
      const [row] = (await db.query<any>(`SELECT online, checks_count FROM agents_summary WHERE id = $1`, [agentId]))
        .rows;
      expect(row).toMatchObject({ online: true });
      expect(Number(row.checks_count)).toBe(1);
    }, 300_000);

    it('runs an assigned file scraper on the agent: its items and a change arrive upstream, once', async () => {
      const items = async () =>
        (
          await db.query<any>(`SELECT id, agent_id, name, type, config FROM config_items WHERE scraper_id = $1`, [
            scraperId,
          ])
        ).rows;
      await waitFor('the scraped item upstream', async () => (await items()).length > 0, 120_000);
      const [item] = await items();
      expect(item).toMatchObject({ agent_id: agentId, name: 'web', type: 'Service', config: { replicas: 2 } });
      // the runs' job history arrives too, stamped with the agent
      const runs = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM job_history WHERE resource_id = $1 AND agent_id = $2 AND name = 'ConfigScraper'`,
              [scraperId, agentId],
            )
          ).rows[0].n,
        );
      await waitFor('the scraper runs upstream', async () => (await runs()) > 0, 60_000);

      writeFileSync(join(docs, 'web.json'), doc(5));
      const changes = async () =>
        (await db.query<any>(`SELECT change_type, summary, count FROM config_changes WHERE config_id = $1`, [item.id]))
          .rows;
      await waitFor('the change upstream', async () => (await changes()).length > 0, 60_000);
      // more runs and pushes after it: the change is still there once
      const seen = await runs();
      await waitFor('more runs upstream', async () => (await runs()) >= seen + 3, 60_000);
      expect(await changes()).toEqual([{ change_type: 'diff', summary: 'replicas: 2 -> 5', count: 1 }]);
      expect((await items()).map((i) => [i.id, i.config.replicas])).toEqual([[item.id, 5]]);
    }, 180_000);

    it('runs an assigned topology on the agent: its components arrive upstream', async () => {
      const components = async () =>
        (
          await db.query<any>(
            `SELECT name, agent_id, parent_id IS NOT NULL AS child FROM components
              WHERE topology_id = $1 AND deleted_at IS NULL ORDER BY name`,
            [topologyId],
          )
        ).rows;
      await waitFor('the components upstream', async () => (await components()).length === 2, 60_000);
      expect(await components()).toEqual([
        { name: 'a', agent_id: agentId, child: true },
        { name: 'root', agent_id: agentId, child: false },
      ]);
      // the topology dashboard's Agent filter (seed 002 section 2.7) lists them by the agent's id
      const listed = async (agent: string) => {
        const res = await fetch(`${url}/api/topology?agent_id=${agent}`, { headers: { cookie } });
        expect(res.status).toBe(200);
        return ((await res.json()) as { components: { name: string }[] }).components.map((c) => c.name);
      };
      expect(await listed(agentId)).toContain('root');
      expect(await listed(LOCAL_AGENT_ID)).not.toContain('root');
    }, 90_000);

    it('loses nothing and duplicates nothing while the upstream is away', async () => {
      await app.close();
      const downFrom = Date.now();
      await new Promise((r) => setTimeout(r, 15_000));
      const downTo = Date.now();
      await start();
      // the runs of the outage arrive once the upstream is back
      await waitFor('the results of the outage', async () => (await statuses()).some((t) => t > downTo), 120_000);
      const times = await statuses();
      const during = times.filter((t) => t > downFrom + EVERY_S * 1000 && t < downTo - EVERY_S * 1000);
      expect(during.length).toBeGreaterThanOrEqual(3);
      // one row per run (the key is (check_id, time)): no run is there twice, and none is missing
      expect(new Set(times).size).toBe(times.length);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeLessThan(EVERY_S * 1000 * 3);
    }, 180_000);

    it('stops with the message once the agent is deleted', async () => {
      const res = await fetch(`${url}/api/db/agents?id=eq.${agentId}`, {
        method: 'PATCH',
        headers: { cookie, origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ deleted_at: new Date().toISOString(), cleanup: true }),
      });
      expect(res.status).toBeLessThan(300);
      expect(await exited).toBe(1);
      expect(output).toContain("refused this agent's token");
      // cleanup removed the checks the agent pushed
      const live = await db.query(`SELECT 1 FROM checks WHERE agent_id = $1 AND deleted_at IS NULL`, [agentId]);
      expect(live.rows).toHaveLength(0);
    }, 120_000);
  });
}
