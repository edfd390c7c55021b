/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { createSession } from '#server/auth/sessions.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';

/**
 * The topology engine through the real app: a spec with static components, a catalog lookup, a
 * checks lookup, an SQL lookup (through a connection to the real PostgreSQL; skipped on PGlite
 * alone) and an HTTP lookup (a local JSON API) reconciled by Run now, read back from components
 * and their links; the roll-up after a real check run fails; soft deletion; bad specs refused.
 */
const ROLES = ['admin', 'editor', 'viewer'] as const;
type Role = (typeof ROLES)[number];
const PG_URL = process.env.TEST_DATABASE_URL;

for (const driver of testDrivers()) {
  describe(`topology engine (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    let api: http.Server;
    let apiUrl: string;
    /** what the local API answers: its regions, and the status of the health endpoint a check watches */
    const peer = { regions: [{ id: 'eu-west-1' }, { id: 'us-east-1' }] as { id: string }[], status: 200 };
    const cookies = {} as Record<Role, string>;

    const call = async (
      role: Role,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(url + path, {
        method,
        headers: {
          accept: 'application/json',
          cookie: cookies[role],
          origin: new URL(url).origin,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const createTopology = async (name: string, spec: Record<string, unknown>) => {
      const res = await call(
        'editor',
        'POST',
        '/api/db/topologies',
        { name, spec },
        { prefer: 'return=representation' },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body[0].id as string;
    };
    const runNow = async (id: string) => {
      const res = await call('editor', 'POST', `/api/topology/${id}/run`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const components = async (topologyId: string, live = true) =>
      (
        await db.query<any>(
          `SELECT id, external_id, name, type, parent_id, path, status, status_reason, properties, logs, labels, summary, deleted_at
           FROM components WHERE topology_id = $1 ${live ? 'AND deleted_at IS NULL' : ''} ORDER BY external_id`,
          [topologyId],
        )
      ).rows;
    const byName = (rows: any[], name: string) => {
      const r = rows.find((c) => c.name === name);
      expect(r, `component ${name}`).toBeDefined();
      return r;
    };

    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db));
      for (const role of ROLES) {
        const identity = await createIdentity(db, {
          traits: { email: `${role}@topology.test`, name: { first: role, last: 'Tester' } },
          roles: [role],
        });
        const { token } = await createSession(db, identity.id, { method: 'password', ttlMs: 3_600_000 });
        cookies[role] = `${SESSION_COOKIE}=${token}`;
      }
      api = http.createServer((req, res) => {
        if (req.url === '/regions') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data: peer.regions }));
        } else if (req.url === '/health') {
          res.statusCode = peer.status;
          res.end('ok');
        } else {
          res.statusCode = 404;
          res.end();
        }
      });
      await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
      apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      // catalog items as a scraper would have written them, a team, and a consumer of the
      // component events so publish() stores them for the test to read
      await db.query(
        `INSERT INTO config_items (type, config_class, name, labels, tags, health, config) VALUES
           ('Test::Deployment', 'Deployment', 'cart', '{"app":"cart"}', '{"cluster":"c1","namespace":"shop"}', 'healthy', '{"replicas":2}'),
           ('Test::Deployment', 'Deployment', 'orders', '{"app":"orders"}', '{"cluster":"c1","namespace":"shop"}', 'warning', '{"replicas":1}'),
           ('Test::Deployment', 'Deployment', 'other', '{"app":"other"}', '{"cluster":"c2","namespace":"shop"}', 'healthy', '{}')`,
      );
      await db.query(`INSERT INTO teams (name) VALUES ('payments')`);
      await app.engines.start();
    }, 180_000);
    afterAll(async () => {
      await app?.close();
      await new Promise((r) => api?.close(r));
      await db?.dispose();
    });

    let topologyId: string;
    let checkId: string;

    it('reconciles static components, catalog, checks, SQL and HTTP lookups into a tree', async () => {
      const canary = await call(
        'editor',
        'POST',
        '/api/db/canaries',
        {
          name: 'shop-health',
          schedule: '@every 1h',
          labels: { topo: 't1' },
          spec: { http: [{ name: 'shop-web', url: `${apiUrl}/health`, responseCodes: [200] }] },
        },
        { prefer: 'return=representation' },
      );
      expect(canary.status, JSON.stringify(canary.body)).toBe(201);
      checkId = (await db.query<{ id: string }>(`SELECT id FROM checks WHERE name = 'shop-web'`)).rows[0].id;
      // the first run passes
      expect((await call('editor', 'POST', `/api/canary/run/check/${checkId}`)).status).toBe(200);

      const children: Record<string, unknown>[] = [
        {
          name: 'Deployments',
          components: [
            {
              lookup: { configs: { types: ['Test::Deployment'], tags: { cluster: 'c1' } } },
              template: { name: '{{.item.name}}', type: 'Deployment', labels: { app: '{{.item.labels.app}}' } },
            },
          ],
        },
        {
          name: 'Checks',
          components: [
            { lookup: { checks: [{ labels: { topo: 't1' } }] }, template: { name: 'check {{.item.name}}' } },
          ],
        },
        {
          name: 'Regions',
          components: [
            {
              lookup: { http: { url: `${apiUrl}/regions`, items: '$.data' } },
              template: { name: '{{.item.id}}', type: 'Region' },
            },
          ],
        },
        {
          name: 'Web',
          type: 'Service',
          checks: [{ labels: { topo: 't1' } }],
          logs: [{ name: 'app-logs', type: 'file' }],
        },
      ];
      if (PG_URL) {
        const conn = await call('admin', 'POST', '/api/db/connections', {
          name: 'topo-pg',
          type: 'postgres',
          url: 'postgres://127.0.0.1:5432/postgres',
          username: 'postgres',
          password: 'trust-ignores-it',
        });
        expect(conn.status, JSON.stringify(conn.body)).toBe(201);
        children.push({
          name: 'Databases',
          components: [
            {
              lookup: {
                sql: {
                  connection: 'topo-pg',
                  query: `SELECT name, size FROM (VALUES ('ledger', 7), ('orders-db', 42)) AS t(name, size)`,
                },
              },
              template: {
                name: '{{.item.name}}',
                type: 'Database',
                properties: [{ name: 'size', type: 'number', value: '{{.item.size}}', max: 100, unit: 'GB' }],
              },
            },
          ],
        });
      }
      topologyId = await createTopology('shop', {
        components: [
          {
            id: 'shop',
            name: 'Shop',
            type: 'Environment',
            teams: ['payments'],
            properties: [
              { name: 'region', text: 'eu-west-1', headline: true },
              { name: 'cpu', type: 'number', value: 40, max: 100, unit: '%' },
              { name: 'cost', type: 'currency', value: 1234.5, unit: 'USD' },
              {
                name: 'docs',
                type: 'url',
                text: 'https://docs.example.com',
                links: [{ label: 'Docs', url: 'https://docs.example.com' }],
              },
              { name: 'since', type: 'age', text: '2024-01-01T00:00:00Z' },
              { name: 'token', type: 'hidden', text: 'x' },
            ],
            components: children,
          },
        ],
      });
      const run = await runNow(topologyId);
      expect(run.status, JSON.stringify(run.details)).toBe('SUCCESS');
      const sqlCount = PG_URL ? 3 : 0;
      expect(run.details.summary).toEqual({ added: 10 + sqlCount, updated: 0, unchanged: 0, deleted: 0, errors: 0 });
      const rows = await components(topologyId);
      const shop = byName(rows, 'Shop');
      expect(shop.parent_id).toBeNull();
      expect(shop.path).toBe('');
      expect(shop.properties.map((p: any) => p.name)).toEqual(['region', 'cpu', 'cost', 'docs', 'since', 'token']);
      expect(shop.properties[1]).toEqual({ name: 'cpu', type: 'number', value: 40, max: 100, unit: '%' });
      const deployments = byName(rows, 'Deployments');
      expect(deployments.parent_id).toBe(shop.id);
      const cart = byName(rows, 'cart');
      expect(cart.parent_id).toBe(deployments.id);
      expect(cart.path).toBe(`${shop.id}.${deployments.id}`);
      expect(cart.labels).toEqual({ app: 'cart' });
      expect(rows.some((r) => r.name === 'other')).toBe(false);
      expect(byName(rows, 'check shop-web').parent_id).toBe(byName(rows, 'Checks').id);
      expect(['eu-west-1', 'us-east-1'].map((n) => byName(rows, n).parent_id)).toEqual([
        byName(rows, 'Regions').id,
        byName(rows, 'Regions').id,
      ]);
      expect(byName(rows, 'Web').logs).toEqual([{ name: 'app-logs', type: 'file' }]);
      if (PG_URL) {
        const orders = byName(rows, 'orders-db');
        expect(orders.parent_id).toBe(byName(rows, 'Databases').id);
        expect(orders.properties).toEqual([{ name: 'size', type: 'number', value: 42, max: 100, unit: 'GB' }]);
      }
      // links: the lookup's items, the check selector, the team
      const links = await db.query<any>(
        `SELECT c.name, ci.name AS config, r.selector_id FROM config_component_relationships r
         JOIN components c ON c.id = r.component_id JOIN config_items ci ON ci.id = r.config_id
         WHERE c.topology_id = $1 AND r.deleted_at IS NULL ORDER BY c.name`,
        [topologyId],
      );
      expect(links.rows.map((r: any) => [r.name, r.config, r.selector_id])).toEqual([
        ['cart', 'cart', 'topology'],
        ['orders', 'orders', 'topology'],
      ]);
      const checkLinks = await db.query<any>(
        `SELECT c.name FROM check_component_relationships r JOIN components c ON c.id = r.component_id
         WHERE c.topology_id = $1 AND r.deleted_at IS NULL ORDER BY c.name`,
        [topologyId],
      );
      expect(checkLinks.rows.map((r: any) => r.name)).toEqual(['Web', 'check shop-web']);
      const teams = await db.query<any>(
        `SELECT t.name FROM team_components tc JOIN teams t ON t.id = tc.team_id WHERE tc.component_id = $1`,
        [shop.id],
      );
      expect(teams.rows).toEqual([{ name: 'payments' }]);
      // the roll-up: orders is warning (its catalog item), so Deployments and Shop are too
      expect(byName(rows, 'orders').status).toBe('warning');
      expect(deployments.status).toBe('warning');
      expect(byName(rows, 'Web').status).toBe('healthy');
      expect(shop.status).toBe('warning');
      expect(shop.summary.checks).toEqual({ healthy: 1 });
      expect(deployments.summary).toMatchObject({ healthy: 1, warning: 1 });
      // one job-history row with the counts
      const hist = await db.query<any>(`SELECT name, status, success_count FROM job_history WHERE resource_id = $1`, [
        topologyId,
      ]);
      expect(hist.rows).toEqual([{ name: 'TopologyRun', status: 'SUCCESS', success_count: 10 + sqlCount }]);
    }, 60_000);

    it('re-runs update in place: same ids, unchanged counted', async () => {
      const before = await components(topologyId);
      const run = await runNow(topologyId);
      expect(run.details.summary).toMatchObject({ added: 0, updated: 0, deleted: 0, unchanged: before.length });
      const after = await components(topologyId);
      expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    });

    it('rolls status up when an attached check fails, and publishes component events', async () => {
      peer.status = 503;
      expect((await call('editor', 'POST', `/api/canary/run/check/${checkId}`)).status).toBe(200);
      // the check.failed event reaches the topology.status consumer, which rolls the topology up
      const deadline = Date.now() + 30_000;
      let web: any;
      while (Date.now() < deadline) {
        web = byName(await components(topologyId), 'Web');
        if (web.status === 'unhealthy') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(web.status).toBe('unhealthy');
      expect(web.status_reason).toBe('check shop-web is unhealthy');
      const rows = await components(topologyId);
      expect(byName(rows, 'Shop').status).toBe('unhealthy');
      expect(byName(rows, 'Shop').summary.checks).toEqual({ unhealthy: 1 });
      const events = await db.query<any>(
        `SELECT name, properties->>'name' AS component FROM event_queue WHERE name LIKE 'component.status.%' ORDER BY id`,
      );
      expect(events.rows).toEqual(
        expect.arrayContaining([
          { name: 'component.status.unhealthy', component: 'Web' },
          { name: 'component.status.unhealthy', component: 'Shop' },
        ]),
      );
    }, 60_000);

    it("re-rolls summaries when an attached item's insight or a component's incident changes", async () => {
      // the topology.status consumer rolls up on the topology.summary events the SQL triggers publish
      const until = async (what: string, ok: (rows: any[]) => boolean) => {
        const deadline = Date.now() + 30_000;
        let rows = await components(topologyId);
        while (!ok(rows) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          rows = await components(topologyId);
        }
        expect(ok(rows), what).toBe(true);
        return rows;
      };
      const cart = (await db.query<{ id: string }>(`SELECT id FROM config_items WHERE name = 'cart'`)).rows[0].id;
      const insight = (
        await db.query<{ id: string }>(
          `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status)
           VALUES ($1, 'test', 'security', 'high', 'open') RETURNING id`,
          [cart],
        )
      ).rows[0].id;
      let rows = await until(
        'the insight is counted',
        (r) => byName(r, 'cart').summary?.insights?.security?.high === 1,
      );
      // over the whole subtree: the Deployments group and the root count it too
      expect(byName(rows, 'Deployments').summary.insights).toEqual({ security: { high: 1 } });
      expect(byName(rows, 'Shop').summary.insights).toEqual({ security: { high: 1 } });
      // re-rated, then resolved
      await db.query(`UPDATE config_analysis SET severity = 'low' WHERE id = $1`, [insight]);
      await until('the new severity is counted', (r) => byName(r, 'cart').summary.insights?.security?.low === 1);
      await db.query(`UPDATE config_analysis SET status = 'resolved' WHERE id = $1`, [insight]);
      await until(
        'the resolved insight is gone',
        (r) => Object.keys(byName(r, 'cart').summary.insights ?? {}).length === 0,
      );

      // an incident with evidence on the component: counted; re-rated; resolved; deleted
      const orders = byName(rows, 'orders').id;
      const incident = (
        await db.query<{ id: string }>(
          `INSERT INTO incidents (title, type, severity) VALUES ('orders slow', 'performance', 'high') RETURNING id`,
        )
      ).rows[0].id;
      const hypothesis = (
        await db.query<{ id: string }>(`INSERT INTO hypotheses (incident_id, title) VALUES ($1, 'db') RETURNING id`, [
          incident,
        ])
      ).rows[0].id;
      await db.query(`INSERT INTO evidences (hypothesis_id, type, component_id) VALUES ($1, 'topology', $2)`, [
        hypothesis,
        orders,
      ]);
      rows = await until(
        'the incident is counted',
        (r) => byName(r, 'orders').summary?.incidents?.performance?.high === 1,
      );
      expect(byName(rows, 'Shop').summary.incidents).toEqual({ performance: { high: 1 } });
      await db.query(`UPDATE incidents SET severity = 'critical' WHERE id = $1`, [incident]);
      await until(
        'the new severity is counted',
        (r) => byName(r, 'orders').summary.incidents?.performance?.critical === 1,
      );
      await db.query(`UPDATE incidents SET status = 'resolved' WHERE id = $1`, [incident]);
      await until(
        'the resolved incident is gone',
        (r) => Object.keys(byName(r, 'Shop').summary.incidents ?? {}).length === 0,
      );
      await db.query(`UPDATE incidents SET status = 'open' WHERE id = $1`, [incident]);
      await until(
        'the reopened incident is back',
        (r) => byName(r, 'orders').summary.incidents?.performance?.critical === 1,
      );
      await db.query(`DELETE FROM incidents WHERE id = $1`, [incident]);
      await until(
        'the deleted incident is gone',
        (r) => Object.keys(byName(r, 'Shop').summary.incidents ?? {}).length === 0,
      );
      // no reconcile ran for any of it: only the consumer's roll-ups
      const stale = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM event_queue WHERE name = 'topology.summary'`,
      );
      expect(stale.rows[0].n).toBeGreaterThanOrEqual(7);
    }, 120_000);

    it('applies a statusExpr over the roll-up', async () => {
      const res = await call('editor', 'PATCH', `/api/db/topologies?id=eq.${topologyId}`, {
        spec: {
          components: [
            {
              id: 'shop',
              name: 'Shop',
              statusExpr: "summary.checks.unhealthy > 5 ? 'unhealthy' : 'healthy'",
              components: [{ name: 'Web', checks: [{ labels: { topo: 't1' } }] }],
            },
          ],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(204);
      const run = await runNow(topologyId);
      expect(run.status, JSON.stringify(run.details)).toBe('SUCCESS');
      const rows = await components(topologyId);
      expect(byName(rows, 'Web').status).toBe('unhealthy');
      expect(byName(rows, 'Shop').status).toBe('healthy');
    });

    it('soft-deletes components that left the spec, and brings them back with their ids', async () => {
      const all = await components(topologyId, false);
      const gone = all.filter((r) => r.deleted_at);
      expect(gone.map((r) => r.name)).toEqual(expect.arrayContaining(['Deployments', 'cart', 'Regions', 'eu-west-1']));
      const cartId = gone.find((r) => r.name === 'cart').id;
      peer.regions = [{ id: 'eu-west-1' }];
      await call('editor', 'PATCH', `/api/db/topologies?id=eq.${topologyId}`, {
        spec: {
          components: [
            {
              id: 'shop',
              name: 'Shop',
              components: [
                {
                  name: 'Deployments',
                  components: [
                    {
                      lookup: { configs: { types: ['Test::Deployment'], tags: { cluster: 'c1' } } },
                      template: { name: '{{.item.name}}' },
                    },
                  ],
                },
                {
                  name: 'Regions',
                  components: [
                    {
                      lookup: { http: { url: `${apiUrl}/regions`, items: '$.data' } },
                      template: { name: '{{.item.id}}' },
                    },
                  ],
                },
              ],
            },
          ],
        },
      });
      const run = await runNow(topologyId);
      expect(run.details.summary).toMatchObject({ added: 0, deleted: 1, errors: 0 });
      const rows = await components(topologyId);
      expect(rows.map((r) => r.name).sort()).toEqual(['Deployments', 'Regions', 'Shop', 'cart', 'eu-west-1', 'orders']);
      expect(byName(rows, 'cart').id).toBe(cartId);
      const web = (await components(topologyId, false)).find((r) => r.name === 'Web');
      expect(web.deleted_at).not.toBeNull();
      // the engine's check link of a deleted component is deleted too
      const live = await db.query(
        `SELECT 1 FROM check_component_relationships WHERE component_id = $1 AND deleted_at IS NULL`,
        [web.id],
      );
      expect(live.rows).toEqual([]);
    });

    it('a lookup that cannot be read deletes nothing and says why', async () => {
      const before = await components(topologyId);
      peer.regions = null as never;
      api.removeAllListeners('request');
      api.on('request', (_req, res) => {
        res.statusCode = 500;
        res.end('down');
      });
      const run = await runNow(topologyId);
      expect(run.status).toBe('WARNING');
      expect(JSON.stringify(run.details.errors)).toContain('answered 500');
      expect((await components(topologyId)).map((r) => r.id)).toEqual(before.map((r) => r.id));
    });

    it('refuses bad specs with a clear 400', async () => {
      const cases: [unknown, string][] = [
        [{ components: [{ type: 'X' }] }, 'spec.components[0].name is required'],
        [
          { components: [{ lookup: { configs: { types: ['X'] } } }] },
          'spec.components[0].template: a lookup needs a template: the component made per item',
        ],
        [
          {
            components: [
              {
                name: 'a',
                lookup: { sql: { connection: 'x', query: 'SELECT 1' }, http: { url: 'http://x' } },
                template: { name: 'x' },
              },
            ],
          },
          'spec.components[0].lookup: a lookup has exactly one of configs, checks, sql or http',
        ],
        [
          { components: [{ name: 'a', checks: [{}] }] },
          'spec.components[0].checks[0]: a selector needs at least one of',
        ],
        [
          { components: [{ name: 'a', statusExpr: 'status ==' }] },
          'spec.components[0].statusExpr: invalid CEL expression',
        ],
        [{ components: [{ name: 'a', colour: 'red' }] }, 'colour'],
        [
          { components: [{ name: 'a', properties: [{ name: 'p', type: 'gauge' }] }] },
          'spec.components[0].properties[0].type',
        ],
      ];
      cases.push([{ configs: [{ types: ['X'] }], components: [] }, 'spec.configs: only used with spec.type']);
      let deep: Record<string, unknown> = { name: 'leaf' };
      for (let i = 0; i < 13; i++) deep = { name: `level-${i}`, components: [deep] };
      cases.push([{ components: [deep] }, 'components nest deeper than 12 levels']);
      for (const [spec, message] of cases) {
        const res = await call('editor', 'POST', '/api/db/topologies', { name: 'bad', spec });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.message, JSON.stringify(spec)).toContain(message);
      }
    });

    it('Run now: editors may, viewers get 403, an unknown topology 404', async () => {
      expect((await call('viewer', 'POST', `/api/topology/${topologyId}/run`)).status).toBe(403);
      expect((await call('editor', 'POST', `/api/topology/00000000-0000-4000-8000-000000000001/run`)).status).toBe(404);
      expect((await call('editor', 'POST', `/api/topology/not-a-uuid/run`)).status).toBe(400);
    });
  });
}
