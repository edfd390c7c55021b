/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';

/** The generic settings resources through /api/db and /api/schemas, on a real app and database. */

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url + path, {
    method,
    headers: {
      accept: 'application/json',
      // as the web app's same-origin calls do (browser protections)
      origin: url,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const canary = (o: Record<string, unknown> = {}) => ({
  name: 'api-check',
  namespace: 'default',
  labels: { env: 'test' },
  schedule: '@every 5m',
  spec: { http: [{ name: 'home', url: 'http://127.0.0.1:1/', method: 'GET', responseCodes: [200] }] },
  ...o,
});

for (const driver of testDrivers()) {
  describe(`settings resources API (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'none' }));
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    it('serves a JSON schema per kind and 404 for unknown kinds', async () => {
      const r = await call(url, 'GET', '/api/schemas/canary.schema.json');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('application/schema+json');
      expect(r.body.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(r.body.properties.http.items.required).toEqual(expect.arrayContaining(['name', 'url']));
      expect(r.body.properties.http.items.properties.method.enum).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
      for (const kind of ['scraper', 'topology', 'team', 'incident_rule', 'logging_backend']) {
        const s = await call(url, 'GET', `/api/schemas/${kind}.schema.json`);
        expect(s.status, kind).toBe(200);
        expect(s.body.type).toBe('object');
      }
      const scraper = await call(url, 'GET', '/api/schemas/scraper.schema.json');
      expect(scraper.body.properties.kubernetes.items.required).toEqual(['clusterName']);
      expect(scraper.body.properties.sql.items.required).toEqual(
        expect.arrayContaining(['type', 'id', 'connection', 'query']),
      );
      const unknown = await call(url, 'GET', '/api/schemas/nope.schema.json');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toMatch(/Unknown schema 'nope.schema.json'/);
    });

    it('creates with source UI, reads through the _with_status view, updates and soft-deletes', async () => {
      const created = await call(url, 'POST', '/api/db/canaries', canary(), {
        prefer: 'return=representation',
        accept: 'application/vnd.pgrst.object+json',
      });
      expect(created.status).toBe(201);
      expect(created.body.source).toBe('UI');
      const id = created.body.id;

      // a job run of this canary shows as its Job Status / Last Run / Last Failed
      await db.query(
        `INSERT INTO job_history (name, resource_type, resource_id, status, time_start, created_at) VALUES
        ('CanaryRun', 'canary', $1, 'FAILED', now() - interval '2 minutes', now() - interval '2 minutes'),
        ('CanaryRun', 'canary', $1, 'SUCCESS', now(), now())`,
        [id],
      );
      const list = await call(
        url,
        'GET',
        '/api/db/canaries_with_status?select=id,name,source,job_status,last_runtime,job_last_failed,created_by(id,name)&deleted_at=is.null&order=name.asc&limit=100',
      );
      expect(list.status).toBe(200);
      const row = list.body.find((r: any) => r.id === id);
      expect(row).toMatchObject({ name: 'api-check', source: 'UI', job_status: 'SUCCESS' });
      expect(new Date(row.job_last_failed).getTime()).toBeLessThan(new Date(row.last_runtime).getTime());

      const updated = await call(
        url,
        'PATCH',
        `/api/db/canaries?id=eq.${id}`,
        { schedule: '@every 1m', spec: { tcp: [{ name: 'port', endpoint: '127.0.0.1:1' }] } },
        { prefer: 'return=representation' },
      );
      expect(updated.status).toBe(200);
      expect(updated.body[0].spec).toEqual({ tcp: [{ name: 'port', endpoint: '127.0.0.1:1' }] });

      const deleted = await call(url, 'PATCH', `/api/db/canaries?id=eq.${id}`, {
        deleted_at: new Date().toISOString(),
      });
      expect(deleted.status).toBe(204);
      const after = await call(url, 'GET', `/api/db/canaries_with_status?select=id&deleted_at=is.null&id=eq.${id}`);
      expect(after.body).toEqual([]);
      // soft: the row and its history are still there
      expect((await db.query('SELECT 1 FROM canaries WHERE id = $1', [id])).rows).toHaveLength(1);
    });

    it('rejects an invalid spec with a 400 naming the field, and writes nothing', async () => {
      const before = (await db.query('SELECT count(*)::int AS n FROM canaries')).rows[0];
      const missing = await call(
        url,
        'POST',
        '/api/db/canaries',
        canary({ name: 'bad-spec', spec: { http: [{ name: 'home' }] } }),
      );
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: '23514', message: 'spec.http[0].url is required' });
      expect(missing.body.hint).toContain('/api/schemas/canary.schema.json');

      const body = await call(
        url,
        'POST',
        '/api/db/canaries',
        canary({ name: 'bad-body', spec: { http: [{ name: 'h', url: 'http://x', method: 'GET', body: '{}' }] } }),
      );
      expect(body.status).toBe(400);
      expect(body.body.message).toBe('spec.http[0].body: body is allowed only for POST and PUT');

      const type = await call(
        url,
        'POST',
        '/api/db/canaries',
        canary({ name: 'bad-type', spec: { tcp: [{ name: 't', endpoint: 'x:1', thresholdMillis: 'fast' }] } }),
      );
      expect(type.status).toBe(400);
      expect(type.body.message).toMatch(/^spec\.tcp\[0\]\.thresholdMillis: /);

      const sched = await call(
        url,
        'POST',
        '/api/db/canaries',
        canary({ name: 'bad-schedule', schedule: '@every soon' }),
      );
      expect(sched.status).toBe(400);
      expect(sched.body.message).toMatch(/^schedule: invalid duration/);

      const labels = await call(url, 'POST', '/api/db/canaries', canary({ name: 'bad-labels', labels: ['a'] }));
      expect(labels.status).toBe(400);
      expect(labels.body.message).toBe('labels must be a JSON object whose values are strings');

      const noName = await call(url, 'POST', '/api/db/teams', { name: '  ', spec: {} });
      expect(noName.status).toBe(400);
      expect(noName.body.message).toBe('name is required');

      // several problems: the first is the message, all are in details; bulk rows are numbered
      const bulk = await call(url, 'POST', '/api/db/config_scrapers', [
        { name: 'ok', spec: { kubernetes: [{ clusterName: 'c1' }] } },
        { name: 'bad', spec: { sql: [{ type: 'T', id: '$.id' }], kubernetes: [{}] } },
      ]);
      expect(bulk.status).toBe(400);
      expect(bulk.body.message).toBe('[1] spec.kubernetes[0].clusterName is required');
      expect(bulk.body.details).toContain('[1] spec.sql[0].connection is required');
      expect(bulk.body.details).toContain('[1] spec.sql[0].query is required');

      const after = (await db.query('SELECT count(*)::int AS n FROM canaries')).rows[0];
      expect(after.n).toBe(before.n);
      expect((await db.query(`SELECT 1 FROM config_scrapers WHERE name = 'ok'`)).rows).toHaveLength(0);
    });

    it('validates PATCH bodies too, including spec.schedule and non-object specs', async () => {
      const { body } = await call(
        url,
        'POST',
        '/api/db/topologies',
        { name: 'topo-a', spec: { type: 'Environment', components: [{ name: 'c' }] } },
        { prefer: 'return=representation' },
      );
      const id = body[0].id;
      const bad = await call(url, 'PATCH', `/api/db/topologies?id=eq.${id}`, {
        spec: { schedule: 'every now and then', components: [{}] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('spec.components[0].name is required');
      expect(bad.body.details).toContain('spec.schedule: invalid schedule "every now and then"');
      const arr = await call(url, 'PATCH', `/api/db/topologies?id=eq.${id}`, { spec: [1] });
      expect(arr.status).toBe(400);
      expect(arr.body.message).toBe('spec must be an object');
      // untouched
      expect((await db.query('SELECT spec FROM topologies WHERE id = $1', [id])).rows[0].spec).toEqual({
        type: 'Environment',
        components: [{ name: 'c' }],
      });
      // a PATCH without spec or name is not held to the create rules
      expect((await call(url, 'PATCH', `/api/db/topologies?id=eq.${id}`, { namespace: 'ops' })).status).toBe(204);
      // malformed JSON is still the engine's own error
      const raw = await fetch(`${url}/api/db/topologies?id=eq.${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: '{"spec":',
      });
      expect(raw.status).toBe(400);
      expect((await raw.json()).code).toBe('PGRST102');
    });

    it("refuses a person's change to a row from another source (KubernetesCRD): 409, the row as it was", async () => {
      const spec = JSON.stringify(canary().spec);
      const crd = (
        await db.query(
          `INSERT INTO canaries (name, namespace, spec, source) VALUES ('crd-check', 'default', $1, 'KubernetesCRD') RETURNING id`,
          [spec],
        )
      ).rows[0].id;
      const message = 'Health check "crd-check" comes from KubernetesCRD and can only be changed there';
      const patch = await call(url, 'PATCH', `/api/db/canaries?id=eq.${crd}`, { schedule: '@every 1m' });
      expect(patch.status).toBe(409);
      expect(patch.body).toMatchObject({ code: 'PT409', message });
      const softDelete = await call(url, 'PATCH', `/api/db/canaries?id=eq.${crd}`, {
        deleted_at: new Date().toISOString(),
      });
      expect([softDelete.status, softDelete.body.message]).toEqual([409, message]);
      expect((await call(url, 'DELETE', `/api/db/canaries?id=eq.${crd}`)).status).toBe(409);
      const upsert = await call(url, 'POST', '/api/db/canaries', canary({ id: crd, name: 'crd-check', source: 'UI' }), {
        prefer: 'resolution=merge-duplicates',
      });
      expect(upsert.status).toBe(409);
      // a bulk PATCH touching it changes nothing at all
      const ui = await call(url, 'POST', '/api/db/canaries', canary({ name: 'ui-check' }), {
        prefer: 'return=representation',
      });
      const bulk = await call(url, 'PATCH', `/api/db/canaries?id=in.(${crd},${ui.body[0].id})`, { icon: 'bell' });
      expect(bulk.status).toBe(409);
      expect(
        (
          await db.query(
            `SELECT name, icon, schedule, source, deleted_at FROM canaries WHERE id = ANY($1) ORDER BY name`,
            [[crd, ui.body[0].id]],
          )
        ).rows,
      ).toEqual([
        { name: 'crd-check', icon: null, schedule: null, source: 'KubernetesCRD', deleted_at: null },
        { name: 'ui-check', icon: null, schedule: '@every 5m', source: 'UI', deleted_at: null },
      ]);
      // the same for a notification rule; an empty source is the console's own
      const rule = (
        await db.query(
          `INSERT INTO notifications (name, events, source) VALUES ('crd-rule', '{check.failed}', 'KubernetesCRD'), ('blank-rule', '{check.failed}', '') RETURNING id`,
        )
      ).rows;
      const rulePatch = await call(url, 'PATCH', `/api/db/notifications?id=eq.${rule[0].id}`, { title: 'x' });
      expect([rulePatch.status, rulePatch.body.message]).toEqual([
        409,
        'Notification "crd-rule" comes from KubernetesCRD and can only be changed there',
      ]);
      expect((await call(url, 'PATCH', `/api/db/notifications?id=eq.${rule[1].id}`, { title: 'x' })).status).toBe(204);
      // engines (no person behind the write) keep such rows up to date
      await db.query(`UPDATE canaries SET schedule = '@every 10m' WHERE id = $1`, [crd]);
      expect((await db.query('SELECT schedule FROM canaries WHERE id = $1', [crd])).rows[0].schedule).toBe(
        '@every 10m',
      );
    });

    it('lists job history like the Jobs History page: filters, order, count and the agent', async () => {
      await db.query(`INSERT INTO job_history (name, resource_type, resource_id, agent_id, status, duration_millis, created_at) VALUES
        ('ConfigScraper', 'config_scraper', 'x1', '00000000-0000-0000-0000-000000000000', 'SUCCESS', 100, now() - interval '1 hour'),
        ('ConfigScraper', 'config_scraper', 'x1', NULL, 'FAILED', 5000, now() - interval '30 minutes'),
        ('TopologyRun', 'topology', 'x2', NULL, 'WARNING', 9000, now() - interval '3 days')`);
      const since = new Date(Date.now() - 2 * 86_400_000).toISOString();
      const r = await call(
        url,
        'GET',
        `/api/db/job_histories?select=*&resource_type=eq.config_scraper&status=not.in.(SUCCESS)&duration_millis=gte.1000&created_at=gte.${since}&order=created_at.desc&limit=50&offset=0`,
        undefined,
        { prefer: 'count=exact' },
      );
      expect(r.status).toBe(200);
      expect(r.headers.get('content-range')).toBe('0-0/1');
      expect(r.body[0]).toMatchObject({ name: 'ConfigScraper', status: 'FAILED', duration_millis: 5000, agent: null });
      const all = await call(
        url,
        'GET',
        '/api/db/job_histories?select=name,agent&resource_id=eq.x1&order=created_at.asc',
      );
      expect(all.body[0].agent).toMatchObject({ id: '00000000-0000-0000-0000-000000000000' });
      const names = await call(url, 'GET', '/api/db/job_history_names?order=name.asc');
      expect(names.body.map((n: any) => n.name)).toEqual(
        expect.arrayContaining(['CanaryRun', 'ConfigScraper', 'TopologyRun']),
      );
      expect([...names.body.map((n: any) => n.name)].sort()).toEqual(names.body.map((n: any) => n.name));
    });
  });
}
