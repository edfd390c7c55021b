/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { closedPort } from '../health/peers.ts';
import type { Db } from '#server/db/index.ts';
import { callers, finished, insertPlaybook, waitFor, type App } from './support.ts';

/**
 * What starts runs besides a person: a cron schedule, a check failing for real (the health
 * engine's check.failed through the event bus, with a CEL filter), a webhook with each kind of
 * authentication (wrong credentials refused); the Playbooks dropdown list, the params lookup and
 * the resource search; a synced playbook refused to a person's edit.
 */
const jwt = (claims: Record<string, unknown>, secret: string) => {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
};

for (const driver of testDrivers()) {
  describe(`playbook triggers and lookups (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: App;
    let url: string;
    let api: Awaited<ReturnType<typeof callers>>;

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { playbookWorkers: 2 }));
      api = await callers(db, url, { admin: 'admin', viewer: 'viewer' });
      await app.engines.start();
    }, 300_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    it('runs a playbook on its cron schedule, once per slot', async () => {
      const id = await insertPlaybook(db, 'cron', {
        on: { schedule: [{ schedule: '@every 1s' }] },
        actions: [{ name: 'tick', exec: { script: 'echo tick' } }],
      });
      // the scheduler reloads its sources when told; a new playbook is picked up at the next reload
      await app.engines.scheduler.reload();
      const runs = await waitFor('two scheduled runs', async () => {
        const { rows } = await db.query<any>(
          `SELECT id FROM playbook_runs WHERE playbook_id = $1 AND trigger_source = 'schedule' ORDER BY created_at`,
          [id],
        );
        return rows.length >= 2 ? rows : undefined;
      });
      const { actions } = await finished(db, runs[0].id);
      expect(actions.tick.result.stdout).toBe('tick\n');
      await db.query(`UPDATE playbooks SET deleted_at = now() WHERE id = $1`, [id]);
      await app.engines.scheduler.reload();
    });

    it('runs on a failing check (check.failed through the bus) when the CEL filter passes', async () => {
      const closed = await closedPort();
      const pb = await insertPlaybook(db, 'on-failure', {
        on: { check: [{ event: 'failed', filter: 'check.name == "orders port"' }] },
        checks: [{ types: ['tcp'] }],
        actions: [{ name: 'diagnose', exec: { script: 'echo "diagnosing {{.check.name}}"' } }],
      });
      const other = await insertPlaybook(db, 'filtered-out', {
        on: { check: [{ event: 'failed', filter: 'check.name == "something else"' }] },
        actions: [{ name: 'never', exec: { script: 'echo never' } }],
      });
      const created = await api.call(
        'admin',
        'POST',
        '/api/db/canaries',
        {
          name: 'orders',
          schedule: '@every 1s',
          spec: { tcp: [{ name: 'orders port', endpoint: `127.0.0.1:${closed}` }] },
        },
        { prefer: 'return=representation' },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const run = await waitFor(
        'a run triggered by the failing check',
        async () => {
          const { rows } = await db.query<any>(
            `SELECT r.id, r.check_id, r.trigger_source, c.name FROM playbook_runs r JOIN checks c ON c.id = r.check_id
             WHERE r.playbook_id = $1`,
            [pb],
          );
          return rows[0];
        },
        30_000,
      );
      expect(run).toMatchObject({ trigger_source: 'event', name: 'orders port' });
      const { actions } = await finished(db, run.id);
      expect(actions.diagnose.result.stdout).toBe('diagnosing orders port\n');
      const { rows } = await db.query(`SELECT 1 FROM playbook_runs WHERE playbook_id = $1`, [other]);
      expect(rows).toHaveLength(0);
      await db.query(`UPDATE canaries SET deleted_at = now() WHERE id = $1`, [created.body[0].id]);
    });

    it('webhook: basic, token and JWT authentication; wrong credentials refused', async () => {
      const basic = await insertPlaybook(db, 'hook-basic', {
        parameters: [{ name: 'msg' }],
        on: { webhook: { path: 'deploy-done', authentication: { basic: { username: 'ci', password: 's3cret' } } } },
        actions: [{ name: 'say', exec: { script: 'echo "{{.params.msg}}"' } }],
      });
      await insertPlaybook(db, 'hook-token', {
        on: {
          webhook: { path: 'with-token', authentication: { token: { value: 'tok-123', header: 'X-Hook-Token' } } },
        },
        actions: [{ name: 'ok', exec: { script: 'true' } }],
      });
      await insertPlaybook(db, 'hook-jwt', {
        on: { webhook: { path: 'with-jwt', authentication: { jwt: { issuer: 'https://ci.example', secret: 'k3y' } } } },
        actions: [{ name: 'ok', exec: { script: 'true' } }],
      });
      const post = (path: string, headers: Record<string, string>, body: unknown = {}) =>
        fetch(`${url}/api/playbook/webhook/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const b64 = (s: string) => Buffer.from(s).toString('base64');

      expect((await post('deploy-done', {})).status).toBe(401);
      expect((await post('deploy-done', { authorization: `Basic ${b64('ci:wrong')}` })).status).toBe(401);
      expect((await post('nowhere', { authorization: `Basic ${b64('ci:s3cret')}` })).status).toBe(401);
      const ok = await post(
        'deploy-done',
        { authorization: `Basic ${b64('ci:s3cret')}` },
        { params: { msg: 'v1.2 out' } },
      );
      expect(ok.status).toBe(201);
      const { run, actions } = await finished(db, ok.body.run_id);
      expect(run).toMatchObject({ playbook_id: basic, trigger_source: 'webhook' });
      expect(actions.say.result.stdout).toBe('v1.2 out\n');

      expect((await post('with-token', { 'x-hook-token': 'nope' })).status).toBe(401);
      expect((await post('with-token', { 'x-hook-token': 'tok-123' })).status).toBe(201);

      const now = Math.floor(Date.now() / 1000);
      const good = jwt({ iss: 'https://ci.example', exp: now + 60 }, 'k3y');
      expect(
        (
          await post('with-jwt', {
            authorization: `Bearer ${jwt({ iss: 'https://ci.example', exp: now + 60 }, 'other')}`,
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await post('with-jwt', {
            authorization: `Bearer ${jwt({ iss: 'https://evil.example', exp: now + 60 }, 'k3y')}`,
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await post('with-jwt', {
            authorization: `Bearer ${jwt({ iss: 'https://ci.example', exp: now - 60 }, 'k3y')}`,
          })
        ).status,
      ).toBe(401);
      expect((await post('with-jwt', { authorization: `Bearer ${good}` })).status).toBe(201);
    });

    it('lists the playbooks offered on a resource, resolves parameters, searches resources', async () => {
      const { rows: cfg } = await db.query<{ id: string }>(
        `INSERT INTO config_items (name, type, config_class, tags, health) VALUES ('web', 'Kubernetes::Deployment', 'Deployment', '{"namespace":"shop"}', 'healthy') RETURNING id`,
      );
      const { rows: pod } = await db.query<{ id: string }>(
        `INSERT INTO config_items (name, type, config_class, health) VALUES ('web-1', 'Kubernetes::Pod', 'Pod', 'healthy') RETURNING id`,
      );
      const restart = await insertPlaybook(db, 'restart', {
        configs: [{ types: ['Kubernetes::Deployment'], tags: { namespace: 'shop' } }],
        parameters: [
          { name: 'target', default: '{{.config.name}}.{{.config.tags.namespace}}' },
          { name: 'confirm', type: 'checkbox', required: true },
        ],
        actions: [{ name: 'x', exec: { script: 'echo {{.params.target}}' } }],
      });
      const list = await api.call('viewer', 'GET', `/api/playbook/list?config_id=${cfg[0]!.id}`);
      expect(list.status).toBe(200);
      expect(list.body.map((p: any) => p.id)).toContain(restart);
      const none = await api.call('viewer', 'GET', `/api/playbook/list?config_id=${pod[0]!.id}`);
      expect(none.body.map((p: any) => p.id)).not.toContain(restart);
      expect((await api.call('viewer', 'GET', '/api/playbook/list?config_id=x')).status).toBe(400);

      const params = await api.call('viewer', 'POST', `/api/playbook/${restart}/params`, { config_id: cfg[0]!.id });
      expect(params.status).toBe(200);
      expect(params.body.params[0]).toMatchObject({ name: 'target', default: 'web.shop' });

      const search = await api.call('viewer', 'POST', '/api/playbook/resources/search', {
        playbook_id: restart,
        search: 'we',
      });
      expect(search.status).toBe(200);
      expect(search.body.configs.map((c: any) => c.name)).toEqual(['web']);
      expect(search.body.checks).toEqual([]);

      const wrong = await api.call('admin', 'POST', '/api/playbook/run', {
        id: restart,
        config_id: pod[0]!.id,
        params: { confirm: 'true' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('playbook "restart" is not offered on config "web-1"');
      const missing = await api.call('admin', 'POST', '/api/playbook/run', { id: restart, config_id: cfg[0]!.id });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('params.confirm: confirm is required');
      const ok = await api.call('admin', 'POST', '/api/playbook/run', {
        id: restart,
        config_id: cfg[0]!.id,
        params: { confirm: 'true' },
      });
      expect(ok.status).toBe(201);
      const { actions } = await finished(db, ok.body.run_id);
      expect(actions.x.result.stdout).toBe('web.shop\n');
    });

    it('refuses a person editing a synced playbook; the UI one is editable', async () => {
      const synced = await insertPlaybook(
        db,
        'synced',
        { actions: [{ name: 'x', exec: { script: 'true' } }] },
        'GitOps',
      );
      const edit = await api.call('admin', 'PATCH', `/api/db/playbooks?id=eq.${synced}`, { title: 'Edited' });
      expect(edit.status).toBe(409);
      expect(edit.body.message).toBe('Playbook "synced" comes from GitOps and can only be changed there');
      const ui = await insertPlaybook(db, 'mine', { actions: [{ name: 'x', exec: { script: 'true' } }] });
      expect((await api.call('admin', 'PATCH', `/api/db/playbooks?id=eq.${ui}`, { title: 'Edited' })).status).toBe(204);
    });
  });
}
