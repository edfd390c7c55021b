/**
 * The /k8s API over plain HTTP: every kind through create, get, list, merge patch, JSON patch and
 * delete as the rows the UI shows; discovery and OpenAPI from the forms' schemas; and bad input
 * answered with a 4xx Kubernetes Status (never a 500, never the database's words).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { signedIn } from './support.ts';

const GV = '/k8s/apis/watchdeck.io/v1';
const DB_WORDS =
  /invalid input syntax|syntax error|relation "|column "|violates|duplicate key|SQLSTATE|pg_|postgres|pglite/i;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Status bodies and objects alike
  body: any;
  text: string;
}

for (const driver of testDrivers()) {
  describe(`the /k8s API (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    let adminToken = '';
    let viewerToken = '';

    async function call(
      method: string,
      path: string,
      body?: unknown,
      opts: { token?: string | null; type?: string } = {},
    ): Promise<Answer> {
      const headers: Record<string, string> = { accept: 'application/json' };
      const token = opts.token === undefined ? adminToken : opts.token;
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = opts.type ?? 'application/json';
      const res = await fetch(app.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, text };
    }

    /** A 4xx Status naming the reason, without the database's words. */
    function expectStatus(r: Answer, code: number, reason: string, message?: RegExp | string) {
      expect(r.status, r.text).toBe(code);
      expect(r.text).not.toMatch(DB_WORDS);
      expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code });
      if (message) expect(r.body.message).toMatch(message);
    }

    const tokenOf = async (role: string) => {
      const b = await signedIn(db, app.url, role);
      const r = await b.get('/api/kubeconfig');
      return YAML.parse(r.body as string).users[0].user.token as string;
    };

    beforeAll(async () => {
      db = await driver.open();
      app = await startApp(db, { role: 'api' });
      adminToken = await tokenOf('admin');
      viewerToken = await tokenOf('viewer');
    }, 60_000);
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('serves discovery and OpenAPI documents built from the forms schemas', async () => {
      const list = await call('GET', GV);
      expect(list.body.resources).toHaveLength(10);
      expect(list.body.resources.find((r: { name: string }) => r.name === 'teams')).toMatchObject({
        kind: 'Team',
        namespaced: false,
        verbs: expect.arrayContaining(['get', 'list', 'create', 'update', 'patch', 'delete']),
      });
      const v3 = await call('GET', '/k8s/openapi/v3/apis/watchdeck.io/v1');
      const canary = v3.body.components.schemas['io.watchdeck.v1.Canary'];
      expect(canary['x-kubernetes-group-version-kind']).toEqual([
        { group: 'watchdeck.io', version: 'v1', kind: 'Canary' },
      ]);
      expect(canary.properties.spec.properties.http.items.properties.url).toBeDefined();
      expect(JSON.stringify(v3.body)).not.toContain('$defs');
      const v2 = await call('GET', '/k8s/openapi/v2');
      expect(v2.body.definitions['io.watchdeck.v1.Playbook'].properties.spec.properties.actions).toBeDefined();
      expect((await call('GET', '/k8s/openapi/v3')).body.paths['apis/watchdeck.io/v1'].serverRelativeURL).toMatch(
        /^\/openapi\/v3\/apis\/watchdeck\.io\/v1/,
      );
    });

    it('writes and reads every kind as the rows the UI shows', async () => {
      const canary = await call('POST', `${GV}/namespaces/default/canaries`, {
        apiVersion: 'watchdeck.io/v1',
        kind: 'Canary',
        metadata: { name: 'every-kind' },
        spec: { http: [{ name: 'home', url: 'https://example.invalid' }] },
      });
      expect(canary.status, canary.text).toBe(201);
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const specs: [string, string, Record<string, unknown>][] = [
        [
          'scrapeconfigs',
          'config_scrapers',
          { file: [{ type: 'Demo', format: 'json', icon: 'file', paths: ['fixtures/*.json'] }] },
        ],
        ['topologies', 'topologies', { components: [{ name: 'api' }] }],
        ['playbooks', 'playbooks', { title: 'Restart', actions: [{ name: 'say', exec: { script: 'echo hi' } }] }],
        ['notifications', 'notifications', { events: ['check.failed'], title: 'Check down' }],
        [
          'notificationsilences',
          'notification_silences',
          { until, canaryId: canary.body.metadata.uid, description: 'maintenance' },
        ],
        ['connections', 'connections', { type: 'http', url: 'https://example.invalid' }],
        ['incidentrules', 'incident_rules', { priority: 3, filter: { kind: 'check' } }],
        ['teams', 'teams', {}],
        ['loggingbackends', 'logging_backends', { file: { path: '/var/log/app.log' } }],
      ];
      for (const [plural, table, spec] of specs) {
        const cluster = plural === 'teams' || plural === 'incidentrules';
        const base = cluster ? `${GV}/${plural}` : `${GV}/namespaces/default/${plural}`;
        const name = `kind-${plural}`;
        const created = await call('POST', base, { metadata: { name, labels: { suite: 'kinds' } }, spec });
        expect(created.status, `${plural}: ${created.text}`).toBe(201);
        expect(created.body.metadata).toMatchObject({ name, labels: { suite: 'kinds' } });
        const row = await db.query<{ source: string }>(`SELECT source FROM ${table} WHERE id = $1`, [
          created.body.metadata.uid,
        ]);
        expect(row.rows[0]?.source, plural).toBe('kubectl');

        const got = await call('GET', `${base}/${name}`);
        expect(got.status, plural).toBe(200);
        const listed = await call('GET', `${base}?labelSelector=suite%3Dkinds`);
        expect(listed.status, `${plural}: ${listed.text}`).toBe(200);
        expect(
          listed.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
          plural,
        ).toEqual([name]);

        const patched = await call(
          'PATCH',
          `${base}/${name}`,
          { metadata: { labels: { patched: 'yes' } } },
          {
            type: 'application/merge-patch+json',
          },
        );
        expect(patched.status, `${plural}: ${patched.text}`).toBe(200);
        expect(patched.body.metadata.labels).toEqual({ suite: 'kinds', patched: 'yes' });
        expect(patched.body.metadata.resourceVersion).not.toBe(created.body.metadata.resourceVersion);

        const deleted = await call('DELETE', `${base}/${name}`);
        expect(deleted.status, plural).toBe(200);
        expectStatus(await call('GET', `${base}/${name}`), 404, 'NotFound');
      }
    });

    it('patches with a JSON patch and a strategic-merge patch (as a merge patch)', async () => {
      const base = `${GV}/namespaces/default/canaries`;
      await call('POST', base, {
        metadata: { name: 'patched' },
        spec: { http: [{ name: 'a', url: 'https://a.invalid' }] },
      });
      const json = await call(
        'PATCH',
        `${base}/patched`,
        [{ op: 'replace', path: '/spec/http/0/url', value: 'https://b.invalid' }],
        {
          type: 'application/json-patch+json',
        },
      );
      expect(json.status, json.text).toBe(200);
      expect(json.body.spec.http[0].url).toBe('https://b.invalid');
      const smp = await call(
        'PATCH',
        `${base}/patched`,
        { spec: { schedule: '@every 2m' } },
        {
          type: 'application/strategic-merge-patch+json',
        },
      );
      expect(smp.status, smp.text).toBe(200);
      expect(smp.body.spec).toMatchObject({ schedule: '@every 2m', http: [{ url: 'https://b.invalid' }] });
    });

    it('pages a list with limit and continue', async () => {
      const base = `${GV}/namespaces/paging/canaries`;
      for (const n of ['p1', 'p2', 'p3'])
        expect((await call('POST', base, { metadata: { name: n }, spec: {} })).status).toBe(201);
      const first = await call('GET', `${base}?limit=2`);
      expect(first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['p1', 'p2']);
      const next = await call('GET', `${base}?limit=2&continue=${first.body.metadata.continue}`);
      expect(next.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['p3']);
      expect(next.body.metadata.continue).toBeUndefined();
    });

    it('checks the resource version: a stale PUT is a 409 Conflict', async () => {
      const base = `${GV}/namespaces/default/canaries`;
      const created = await call('POST', base, { metadata: { name: 'versioned' }, spec: {} });
      const stale = created.body;
      const fresh = await call('PUT', `${base}/versioned`, { ...stale, spec: { schedule: '@every 1m' } });
      expect(fresh.status, fresh.text).toBe(200);
      expectStatus(
        await call('PUT', `${base}/versioned`, { ...stale, spec: { schedule: '@every 3m' } }),
        409,
        'Conflict',
        /the object has been modified/,
      );
      expectStatus(
        await call('DELETE', `${base}/versioned`, {
          preconditions: { resourceVersion: stale.metadata.resourceVersion },
        }),
        409,
        'Conflict',
      );
      expectStatus(await call('POST', base, { metadata: { name: 'versioned' }, spec: {} }), 409, 'AlreadyExists');
    });

    it('runs the UI write checks: an invalid spec is a 422 naming the field; dry runs write nothing', async () => {
      const base = `${GV}/namespaces/default/canaries`;
      expectStatus(
        await call('POST', base, { metadata: { name: 'no-url' }, spec: { http: [{ name: 'x' }] } }),
        422,
        'Invalid',
        /spec\.http\[0\]\.url is required/,
      );
      expectStatus(
        await call('POST', `${GV}/namespaces/default/notifications`, { metadata: { name: 'n' }, spec: { events: [] } }),
        422,
        'Invalid',
        /events: This field is required/,
      );
      const dry = await call('POST', `${base}?dryRun=All`, { metadata: { name: 'dry' }, spec: {} });
      expect(dry.status).toBe(201);
      expectStatus(await call('GET', `${base}/dry`), 404, 'NotFound');
    });

    it('answers without a token, with a bad token and for a viewer writing with Status 401/403', async () => {
      expectStatus(await call('GET', GV, undefined, { token: null }), 401, 'Unauthorized');
      // the apply YAML passes the cross-site check as JSON does (no form can send it): the caller decides
      expectStatus(
        await call('PATCH', `${GV}/namespaces/default/canaries/x?fieldManager=t`, 'spec: {}', {
          token: null,
          type: 'application/apply-patch+yaml',
        }),
        401,
        'Unauthorized',
      );
      expectStatus(
        await call('GET', `${GV}/namespaces/default/canaries`, undefined, { token: 'wdpat_nope' }),
        401,
        'Unauthorized',
      );
      const read = await call('GET', `${GV}/namespaces/default/canaries`, undefined, { token: viewerToken });
      expect(read.status).toBe(200);
      expectStatus(
        await call(
          'POST',
          `${GV}/namespaces/default/canaries`,
          { metadata: { name: 'v' }, spec: {} },
          { token: viewerToken },
        ),
        403,
        'Forbidden',
        /cannot create resource "canaries".*write access to canaries is required/,
      );
      // connections need connections write, which editors lack as in the UI
      expectStatus(
        await call('DELETE', `${GV}/namespaces/default/connections/x`, undefined, { token: viewerToken }),
        403,
        'Forbidden',
      );
    });

    it("answers 404 for a disabled feature's kind, as /api/db does for its tables", async () => {
      const path = `${GV}/namespaces/default/connections`;
      expect((await call('GET', path)).status).toBe(200);
      await db.query(`INSERT INTO properties (name, value) VALUES ('settings.connections.disable', 'true')`);
      try {
        await expect.poll(async () => (await call('GET', path)).status, { timeout: 20_000 }).toBe(404);
        expectStatus(await call('GET', path), 404, 'NotFound');
        // and discovery no longer offers it (kubectl api-resources)
        const names = (r: Answer) => (r.body as { resources: { name: string }[] }).resources.map((x) => x.name);
        const listed = names(await call('GET', GV));
        expect(listed).not.toContain('connections');
        expect(listed).toContain('canaries');
      } finally {
        await db.query(`DELETE FROM properties WHERE name = 'settings.connections.disable'`);
      }
      await expect
        .poll(async () => ((await call('GET', GV)).body as { resources: { name: string }[] }).resources.length, {
          timeout: 20_000,
        })
        .toBeGreaterThan(9);
    });

    it('refuses bad input with a 4xx Status', async () => {
      const base = `${GV}/namespaces/default/canaries`;
      const cases: [Answer, number, string][] = [
        [await call('POST', base, '{"metadata":', {}), 400, 'BadRequest'],
        [await call('POST', base, { kind: 'Team', metadata: { name: 'x' } }), 400, 'BadRequest'],
        [await call('POST', base, { metadata: { name: 'x', namespace: 'other' } }), 400, 'BadRequest'],
        [await call('POST', base, { metadata: {} }), 400, 'BadRequest'],
        [await call('POST', base, { metadata: { name: 'a/b' } }), 400, 'BadRequest'],
        [await call('POST', base, { metadata: { name: 'x', labels: { a: 1 } } }), 422, 'Invalid'],
        [await call('POST', base, { metadata: { name: 'x' }, spec: [] }), 422, 'Invalid'],
        [
          await call('POST', base, { metadata: { name: 'x', annotations: { a: 'x'.repeat(300_000) } } }),
          422,
          'Invalid',
        ],
        [await call('POST', base, [1, 2]), 400, 'BadRequest'],
        [await call('GET', `${base}?labelSelector=${encodeURIComponent('a in ()')}`), 400, 'BadRequest'],
        [await call('GET', `${base}?labelSelector=${encodeURIComponent("a=b'; --")}`), 400, 'BadRequest'],
        [await call('GET', `${base}?fieldSelector=spec.x%3D1`), 400, 'BadRequest'],
        [await call('GET', `${base}?limit=-1`), 400, 'BadRequest'],
        [await call('GET', `${base}?limit=1&limit=2`), 400, 'BadRequest'],
        [await call('GET', `${base}?continue=not-a-token`), 400, 'BadRequest'],
        [await call('GET', `${base}?watch=true`), 405, 'MethodNotAllowed'],
        [await call('GET', `${GV}/namespaces/Not_A_Namespace/canaries`), 400, 'BadRequest'],
        [await call('GET', `${GV}/namespaces/default/widgets`), 404, 'NotFound'],
        [await call('GET', `${GV}/namespaces/default/canaries/${'x'.repeat(300)}`), 400, 'BadRequest'],
        [await call('GET', '/k8s/nowhere'), 404, 'NotFound'],
        [
          await call('PATCH', `${base}/missing`, { spec: {} }, { type: 'application/merge-patch+json' }),
          404,
          'NotFound',
        ],
        [await call('PATCH', `${base}/missing`, 'spec: {}', { type: 'application/apply-patch+yaml' }), 422, 'Invalid'],
        [
          await call('PATCH', `${base}/missing?fieldManager=t`, 'spec: [', { type: 'application/apply-patch+yaml' }),
          400,
          'BadRequest',
        ],
        [await call('PATCH', `${base}/x`, '{}', { type: 'text/plain' }), 415, 'UnsupportedMediaType'],
        [await call('PATCH', `${base}/x`, '{"a":', { type: 'application/merge-patch+json' }), 400, 'BadRequest'],
        [await call('POST', `${base}?dryRun=Some`, { metadata: { name: 'x' } }), 400, 'BadRequest'],
        [await call('POST', `${base}?fieldManager=`, { metadata: { name: 'x' } }), 400, 'BadRequest'],
      ];
      await call('POST', base, { metadata: { name: 'jp' }, spec: {} });
      cases.push([
        await call('PATCH', `${base}/jp`, [{ op: 'remove', path: '/spec/nothing/here' }], {
          type: 'application/json-patch+json',
        }),
        422,
        'Invalid',
      ]);
      cases.push([
        await call('PATCH', `${base}/jp`, { op: 'x' }, { type: 'application/json-patch+json' }),
        400,
        'BadRequest',
      ]);
      cases.push([
        await call('PATCH', `${base}/jp`, { spec: { http: 'nope' } }, { type: 'application/merge-patch+json' }),
        422,
        'Invalid',
      ]);
      cases.push([
        await call('POST', `${GV}/namespaces/default/notificationsilences`, {
          metadata: { name: 's' },
          spec: { until: 'tomorrow-ish', canaryId: 'not-a-uuid' },
        }),
        422,
        'Invalid',
      ]);
      cases.push([
        await call('POST', `${GV}/namespaces/default/notificationsilences`, {
          metadata: { name: 's' },
          spec: {
            until: new Date(Date.now() + 60_000).toISOString(),
            canaryId: '7e57e57e-0000-4000-8000-000000000000',
          },
        }),
        422,
        'Invalid',
      ]);
      for (const [r, code, reason] of cases) expectStatus(r, code, reason);
    });
  });
}
