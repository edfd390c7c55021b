/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDb, migrate, type Db } from '#server/db/index.ts';
import { startAgentMode } from '#server/agents/mode.ts';
import { callers, finished, insertPlaybook, waitFor } from '../playbooks/support.ts';

/**
 * Playbook actions that run on an agent (spec runsOn): the upstream's runner leaves such an
 * action waiting, the named agent's long-poll takes it (no other agent can), and its pushed
 * result lets the run go on. First through the upstream API by hand (claims, refusals, a silent
 * agent), then through agent mode's loops on their own PGlite against the real upstream.
 */
for (const driver of testDrivers()) {
  describe(`playbook actions on agents (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url = '';
    let call: Awaited<ReturnType<typeof callers>>['call'];
    const agents: Record<'edge' | 'other', { id: string; access_token: string }> = {} as any;

    const asAgent = async (who: 'edge' | 'other', method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, {
        method,
        headers: {
          authorization: `Bearer ${agents[who].access_token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
    };
    let caller = 'ed';
    const run = async (playbookId: string, params: Record<string, string> = {}) => {
      const r = await call(caller, 'POST', '/api/playbook/run', { id: playbookId, params });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.run_id as string;
    };
    const action = async (runId: string, name: string) =>
      (
        await db.query<any>(`SELECT * FROM playbook_run_actions WHERE playbook_run_id = $1 AND name = $2`, [
          runId,
          name,
        ])
      ).rows[0];

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { playbookWorkers: 2 }));
      await app.engines.start();
      ({ call } = await callers(db, url, { ed: 'editor' }));
      for (const name of ['edge', 'other'] as const) {
        const r = await call('ed', 'POST', '/api/agent/generate', { name });
        expect(r.status).toBe(201);
        agents[name] = r.body;
      }
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    it('accepts runsOn in the spec and its schema, and refuses a malformed one naming the field', async () => {
      const schema = await (await fetch(`${url}/api/playbook/schema.json`)).json();
      expect(JSON.stringify(schema)).toContain('runsOn');
      const bad = await call('ed', 'POST', '/api/db/playbooks', {
        name: 'bad-runs-on',
        title: 'x',
        spec: { runsOn: 'edge', actions: [{ name: 'a', exec: { script: 'true' } }] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^spec\.runsOn/);
    });

    it('hands the action to the named agent only, and goes on once its result is pushed', async () => {
      const id = await insertPlaybook(db, 'on-edge', {
        runsOn: ['edge'],
        parameters: [{ name: 'who', label: 'Who' }],
        actions: [
          { name: 'remote', exec: { script: 'echo hello {{.params.who}}' } },
          // runsOn [] on an action: this one runs here, with the agent's result in its template
          { name: 'here', runsOn: [], http: { url: `${url}/api/health?code={{.actions.remote.result.exitCode}}` } },
        ],
      });
      const runId = await run(id, { who: 'world' });
      await waitFor('the action waiting', async () => (await action(runId, 'remote'))?.status === 'waiting');

      // the long-poll's bounds, and another agent's poll: nothing for it
      expect((await asAgent('other', 'GET', '/api/agent/playbook/actions?timeout=31')).status).toBe(400);
      const theirs = await asAgent('other', 'GET', '/api/agent/playbook/actions?timeout=1');
      expect(theirs.status, theirs.text).toBe(200);
      expect(theirs.body.action).toBeNull();
      // nor may it report the action before or after the named agent took it
      const early = await asAgent('other', 'POST', '/api/agent/push', {
        playbook_run_actions: [{ id: (await action(runId, 'remote')).id, status: 'completed' }],
      });
      expect(early.status).toBe(400);

      const mine = await asAgent('edge', 'GET', '/api/agent/playbook/actions?timeout=5');
      expect(mine.status, mine.text).toBe(200);
      const handed = mine.body.action;
      expect(handed).toMatchObject({
        run_id: runId,
        playbook_id: id,
        playbook_name: 'on-edge',
        name: 'remote',
        action: { name: 'remote', exec: { script: 'echo hello world' } }, // rendered upstream
      });
      expect(handed.action.runsOn).toBeUndefined();
      expect(handed.timeoutMs).toBe(30 * 60_000);
      // taken once: a second poll of the same agent finds nothing more
      expect((await asAgent('edge', 'GET', '/api/agent/playbook/actions?timeout=0')).body.action).toBeNull();
      expect(await action(runId, 'remote')).toMatchObject({ status: 'running', agent_id: agents.edge.id });

      const stolen = await asAgent('other', 'POST', '/api/agent/push', {
        playbook_run_actions: [{ id: handed.id, status: 'failed', error: 'mine now' }],
      });
      expect(stolen.status).toBe(403);
      const report = {
        playbook_run_actions: [
          {
            id: handed.id,
            status: 'completed',
            result: { stdout: 'hello world', exitCode: 0 },
            start_time: '2026-11-26T10:00:00.000Z',
            end_time: '2026-11-26T10:00:01.000Z',
          },
        ],
      };
      const pushed = await asAgent('edge', 'POST', '/api/agent/push', report);
      expect(pushed.status, pushed.text).toBe(200);
      expect(pushed.body.counts).toEqual({ playbook_run_actions: 1 });
      // resent (a lost answer): harmless
      expect((await asAgent('edge', 'POST', '/api/agent/push', report)).body.counts).toEqual({
        playbook_run_actions: 0,
      });

      const { run: done, actions } = await finished(db, runId);
      expect(done.status, done.error).toBe('completed');
      expect(done.agent_id).toBe(agents.edge.id);
      expect(actions.remote).toMatchObject({ status: 'completed', agent_id: agents.edge.id, error: null });
      expect(actions.remote.result).toEqual({ stdout: 'hello world', exitCode: 0 });
      expect(new Date(actions.remote.end_time).toISOString()).toBe('2026-11-26T10:00:01.000Z');
      expect(actions.here).toMatchObject({ status: 'completed', agent_id: null });
      expect(actions.here.result.status).toBe(200);
      const counted = await call(
        'ed',
        'GET',
        `/api/db/agents_summary?id=eq.${agents.edge.id}&select=playbook_runs_count`,
      );
      expect(counted.body[0].playbook_runs_count).toBe(1);
    });

    it('fails an action whose agent went silent after taking it, and keeps that failure', async () => {
      const id = await insertPlaybook(db, 'silent-edge', {
        actions: [
          { name: 'remote', runsOn: ['edge'], exec: { script: 'sleep 600' } },
          { name: 'cleanup', if: 'always', http: { url: `${url}/api/health` } },
        ],
      });
      const runId = await run(id);
      await waitFor('the action waiting', async () => (await action(runId, 'remote'))?.status === 'waiting');
      const taken = await asAgent('edge', 'GET', '/api/agent/playbook/actions?timeout=5');
      expect(taken.body.action?.run_id).toBe(runId);
      // nothing heard from the agent since: as if minutes passed
      await db.query(`UPDATE agents SET last_seen = now() - interval '5 minutes' WHERE id = $1`, [agents.edge.id]);
      const { run: done, actions } = await finished(db, runId);
      expect(done.status).toBe('failed');
      expect(actions.remote.status).toBe('failed');
      expect(actions.remote.error).toMatch(/^the agent "edge" took this action and then went silent/);
      expect(done.error).toContain('went silent');
      expect(actions.cleanup.status).toBe('completed');
      // its late result changes nothing: the action is not done twice over
      const late = await asAgent('edge', 'POST', '/api/agent/push', {
        playbook_run_actions: [{ id: taken.body.action.id, status: 'completed', result: { stdout: 'late' } }],
      });
      expect(late.status).toBe(200);
      expect(late.body.counts).toEqual({ playbook_run_actions: 0 });
      expect((await action(runId, 'remote')).status).toBe('failed');
    });

    it('leaves a taken action with its agent across a server stop: the next server waits on', async () => {
      const id = await insertPlaybook(db, 'across-restart', {
        runsOn: ['edge'],
        actions: [{ name: 'remote', exec: { script: 'true' } }],
      });
      const runId = await run(id);
      await waitFor('the action waiting', async () => (await action(runId, 'remote'))?.status === 'waiting');
      const taken = (await asAgent('edge', 'GET', '/api/agent/playbook/actions?timeout=5')).body.action;
      expect(taken.run_id).toBe(runId);
      await app.close(); // a graceful stop hands the run back; the agent keeps its action
      expect((await action(runId, 'remote')).status).toBe('running');
      ({ app, url } = await startApp(db, { playbookWorkers: 2 }));
      await app.engines.start();
      ({ call } = await callers(db, url, { ed2: 'editor' })); // the new port: a new caller
      caller = 'ed2';
      await waitFor('the run taken up again', async () => {
        const r = await db.query<any>(`SELECT status, attempts FROM playbook_runs WHERE id = $1`, [runId]);
        return r.rows[0].status === 'running' && r.rows[0].attempts === 2;
      });
      const pushed = await asAgent('edge', 'POST', '/api/agent/push', {
        playbook_run_actions: [{ id: taken.id, status: 'completed', result: { exitCode: 0 } }],
      });
      expect(pushed.body.counts).toEqual({ playbook_run_actions: 1 });
      const { run: done, actions } = await finished(db, runId);
      expect(done.status, done.error).toBe('completed');
      expect(actions.remote).toMatchObject({ status: 'completed', result: { exitCode: 0 } });
    });

    it('fails clearly when no agent has the name, or none takes the action in time', async () => {
      const nobody = await insertPlaybook(db, 'on-nobody', {
        runsOn: ['nope'],
        actions: [{ name: 'remote', exec: { script: 'true' } }],
      });
      const a = await finished(db, await run(nobody));
      expect(a.actions.remote.error).toBe('runsOn: no agent named "nope"');
      const idle = await insertPlaybook(db, 'on-idle', {
        actions: [{ name: 'remote', runsOn: ['other'], timeout: '2s', exec: { script: 'true' } }],
      });
      const b = await finished(db, await run(idle));
      expect(b.run.status).toBe('failed');
      expect(b.actions.remote.error).toBe(
        'no agent of runsOn ("other") took this action within 2s: is one of them running?',
      );
    });

    it('runs the action through agent mode on its own database, with the action code of the server', async () => {
      const local = await openDb({ dataDir: 'memory://' });
      await migrate(local);
      const agentApp = await buildApp({
        config: { ...loadConfig({ LOG_LEVEL: process.env.AGENT_LOG ?? 'silent' }), demoData: false },
        db: local,
      });
      await agentApp.ready();
      await agentApp.engines.start();
      const fatal: Error[] = [];
      const mode = startAgentMode({
        db: local,
        upstream: url,
        token: agents.edge.access_token,
        log: agentApp.log,
        reload: () => agentApp.engines.scheduler.reload(),
        version: 'test',
        hostname: 'agent-test',
        onFatal: (err) => fatal.push(err),
      });
      try {
        await db.query(`UPDATE agents SET last_seen = now() WHERE id = $1`, [agents.edge.id]);
        const id = await insertPlaybook(db, 'via-agent-mode', {
          runsOn: ['edge'],
          parameters: [{ name: 'n', label: 'N' }],
          actions: [
            { name: 'count', exec: { script: 'echo "$(( {{.params.n}} * 2 ))"' } },
            { name: 'boom', if: 'always', exec: { script: 'echo nope >&2; exit 3' } },
          ],
        });
        const runId = await run(id, { n: '21' });
        const { run: done, actions } = await finished(db, runId, Number(process.env.AGENT_WAIT ?? 120_000));
        expect(fatal).toEqual([]);
        expect(done.status).toBe('failed');
        expect(actions.count).toMatchObject({ status: 'completed', agent_id: agents.edge.id });
        expect(actions.count.result.stdout.trim()).toBe('42');
        expect(actions.boom).toMatchObject({ status: 'failed', agent_id: agents.edge.id });
        expect(actions.boom.result).toMatchObject({ exitCode: 3 });
        expect(actions.boom.result.stderr).toContain('nope');
        // each ran once on the agent: one local run per action, with the action's id
        const ran = (
          await local.query<any>(
            `SELECT r.id::text, r.trigger_source, r.status, count(a.id)::int AS actions FROM playbook_runs r
               JOIN playbook_run_actions a ON a.playbook_run_id = r.id GROUP BY r.id ORDER BY r.created_at`,
          )
        ).rows;
        expect(ran).toEqual([
          { id: actions.count.id, trigger_source: 'upstream', status: 'completed', actions: 1 },
          { id: actions.boom.id, trigger_source: 'upstream', status: 'failed', actions: 1 },
        ]);
        await waitFor('the reports marked sent', async () => {
          const r = await local.query<any>(
            `SELECT count(*)::int AS n FROM agent_playbook_actions WHERE reported_at IS NULL`,
          );
          return r.rows[0].n === 0;
        });
      } finally {
        mode.stop();
        await agentApp.close();
        await local.close();
      }
    }, 180_000);
  });
}
