/* eslint-disable @typescript-eslint/no-explicit-any -- JSON read from the zip is inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { snapshotArchive, snapshotScope } from '#server/topology/snapshot.ts';
import { topologyFixture, type Fixture } from './fixture.ts';
import { unzip } from './unzip.ts';

/**
 * GET /api/snapshot/topology/{id}?start=&related= over HTTP (seed 002 section 7.2): the zip is
 * downloaded as the browser does, unzipped here, and each file's content checked against the
 * fixture (fixture.ts); then the range, related components, refusals, access and the limits.
 */
const FILES = [
  'check_statuses.json',
  'checks.json',
  'components.json',
  'config_changes.json',
  'configs.json',
  'incidents.json',
  'manifest.json',
];

const names = (list: any[]) => list.map((c) => c.name);

for (const driver of testDrivers()) {
  describe(`GET /api/snapshot/topology/{id} (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let f: Fixture;

    /** The download as a browser gets it, with the signed-in viewer's cookies. */
    async function download(path: string, who = () => f.viewer) {
      const cookie = [...who().cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(f.t.url + path, { headers: cookie ? { cookie } : {} });
      const bytes = Buffer.from(await res.arrayBuffer());
      return { res, bytes };
    }
    async function snapshot(id: string, query = '') {
      const { res, bytes } = await download(`/api/snapshot/topology/${id}${query}`);
      expect(res.status, bytes.toString('utf8').slice(0, 300)).toBe(200);
      const files = unzip(bytes);
      const json = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));
      return { res, files, json };
    }

    beforeAll(async () => {
      db = await driver.open();
      f = await topologyFixture(db);
    });
    afterAll(async () => {
      await f?.t.app.close();
      await db?.dispose();
    });

    it('downloads {name}-snapshot.zip with the tree, checks, history, configs, changes and incidents of the last hour', async () => {
      const { res, files, json } = await snapshot(f.id.alpha, '?start=1h');
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="alpha-snapshot\.zip"/);
      expect([...files.keys()].sort()).toEqual(FILES);

      const [tree] = json('components.json');
      expect(tree).toMatchObject({ id: f.id.alpha, name: 'alpha', type: 'Cluster', status: 'healthy' });
      expect(tree.related).toBeUndefined();
      // descendants at every depth, hidden ones too, deleted ones not
      expect(names(tree.components)).toEqual(['a-db', 'a-hidden', 'a-web']);
      expect(names(tree.components[2].components)).toEqual(['a-web-pod']);

      expect(json('checks.json')).toEqual([
        expect.objectContaining({
          id: f.id['web-http'],
          name: 'web-http',
          canary_name: 'web',
          status: 'unhealthy',
          component_ids: [f.id['a-web']],
        }),
      ]);
      const statuses = json('check_statuses.json');
      expect(statuses.map((s: any) => s.message)).toEqual(['5 minutes ago', '25 minutes ago', '45 minutes ago']);
      expect(statuses[0]).toMatchObject({ check_id: f.id['web-http'], status: false, duration: 12 });

      expect(json('configs.json')).toEqual([
        expect.objectContaining({
          id: f.id['web-deploy'],
          name: 'web-deploy',
          config: { spec: { replicas: 3 } },
          component_ids: [f.id['a-web']],
        }),
      ]);
      expect(json('config_changes.json').map((c: any) => [c.change_type, c.config_name])).toEqual([
        ['scaled', 'web-deploy'],
      ]);
      // the incident resolved a month ago is not one of the last hour's
      expect(json('incidents.json').map((i: any) => [i.title, i.component_ids])).toEqual([
        ['web is down', [f.id['a-web']]],
      ]);

      const manifest = json('manifest.json');
      expect(manifest).toMatchObject({
        component: { id: f.id.alpha, name: 'alpha' },
        related: false,
        components: { tree: 5, related: 0, truncated: false },
        files: {
          'checks.json': { rows: 1, truncated: false },
          'check_statuses.json': { rows: 3, truncated: false },
          'configs.json': { rows: 1, truncated: false },
          'config_changes.json': { rows: 1, truncated: false },
          'incidents.json': { rows: 1, truncated: false },
        },
      });
      const hour = new Date(manifest.end).getTime() - new Date(manifest.start).getTime();
      expect(hour).toBe(3_600_000);
    });

    it('reaches back as far as start says: a duration, a relative time or a date', async () => {
      const week = await snapshot(f.id.alpha, '?start=7d');
      expect(week.json('check_statuses.json')).toHaveLength(4);
      expect(week.json('config_changes.json').map((c: any) => c.change_type)).toEqual(['scaled', 'deployed']);
      const relative = await snapshot(f.id.alpha, '?start=now-30m');
      expect(relative.json('check_statuses.json').map((s: any) => s.message)).toEqual([
        '5 minutes ago',
        '25 minutes ago',
      ]);
      const since = new Date(Date.now() - 45 * 86_400_000).toISOString();
      const old = await snapshot(f.id.alpha, `?start=${encodeURIComponent(since)}`);
      expect(old.json('incidents.json').map((i: any) => i.title)).toEqual(['web is down', 'old cluster outage']);
      // no start: the last 2 days
      const dflt = await snapshot(f.id.alpha);
      expect(dflt.json('check_statuses.json')).toHaveLength(3);
      expect(
        new Date(dflt.json('manifest.json').end).getTime() - new Date(dflt.json('manifest.json').start).getTime(),
      ).toBe(2 * 86_400_000);
    });

    it('adds the related components with related=true', async () => {
      const plain = await snapshot(f.id.bravo, '?start=1h');
      expect(plain.json('components.json')[0].related).toBeUndefined();
      const { json, res } = await snapshot(f.id.bravo, '?start=1h&related=true');
      expect(res.headers.get('content-disposition')).toMatch(/filename="bravo-snapshot\.zip"/);
      const [tree] = json('components.json');
      expect(names(tree.components)).toEqual(['b-pod']);
      expect(names(tree.related)).toEqual(['charlie']);
      expect(json('manifest.json')).toMatchObject({ related: true, components: { tree: 2, related: 1 } });
      // nothing attached to bravo's tree or charlie
      expect(json('checks.json')).toEqual([]);
      expect(json('incidents.json')).toEqual([]);
    });

    it('names the file after the component, whatever its characters', async () => {
      const id = (
        await db.query<{ id: string }>(
          `INSERT INTO components (name, type) VALUES ('café "eu"/1', 'Cluster') RETURNING id`,
        )
      ).rows[0].id;
      const { res } = await snapshot(id);
      const header = res.headers.get('content-disposition')!;
      expect(header).toContain(`filename="caf_ _eu__1-snapshot.zip"`);
      const star = /filename\*=UTF-8''(.+)$/.exec(header)![1];
      expect(decodeURIComponent(star)).toBe('café "eu"/1-snapshot.zip');
    });

    it("answers 404 'Component not found', and 400 for a malformed id, start or related", async () => {
      for (const id of ['7e57e57e-0000-4000-8000-000000000000', f.id.delta]) {
        const r = await f.viewer.get(`/api/snapshot/topology/${id}`);
        expect(r.status).toBe(404);
        expect(r.body).toMatchObject({ code: 'not_found', message: 'Component not found' });
      }
      for (const [path, field] of [
        ['/api/snapshot/topology/nope', 'id'],
        [`/api/snapshot/topology/${f.id.alpha}?start=yesterday`, 'start'],
        [`/api/snapshot/topology/${f.id.alpha}?start=-1h`, 'start'],
        [`/api/snapshot/topology/${f.id.alpha}?start=99999999y`, 'start'],
        [`/api/snapshot/topology/${f.id.alpha}?related=maybe`, 'related'],
      ]) {
        const r = await f.viewer.get(path);
        expect(r.status, path).toBe(400);
        expect(Object.keys(r.body.errors ?? {}), path).toEqual([field]);
      }
      const start = await f.viewer.get(`/api/snapshot/topology/${f.id.alpha}?start=yesterday`);
      expect(start.body.message).toBe(
        'start must be a duration such as 1h or 3d, a relative time such as now-1h, or a date',
      );
    });

    it('lets a viewer download and refuses a caller without a session', async () => {
      expect((await download(`/api/snapshot/topology/${f.id.alpha}`, () => f.admin)).res.status).toBe(200);
      const anon = await download(`/api/snapshot/topology/${f.id.alpha}`, () => f.anonymous);
      expect(anon.res.status).toBe(401);
      expect(JSON.parse(anon.bytes.toString('utf8'))).toMatchObject({ code: 'unauthenticated' });
    });

    it('streams a large snapshot, and a client that hangs up mid-download leaves the server well', async () => {
      // 20,000 results of a check on a component of its own: megabytes of JSON
      const one = async (sql: string, params: unknown[] = []) =>
        (await db.query<{ id: string }>(sql, params)).rows[0].id;
      const bulk = await one(`INSERT INTO components (name, type) VALUES ('bulk', 'Cluster') RETURNING id`);
      const check = await one(
        `INSERT INTO checks (canary_id, name, type) VALUES ($1, 'bulk-http', 'http') RETURNING id`,
        [f.id.canary],
      );
      await db.query(
        `INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES ($1, $2, $3)`,
        [bulk, check, f.id.canary],
      );
      await db.query(
        `INSERT INTO check_statuses (check_id, time, duration, status, message)
         SELECT $1, now() - g * interval '1 second', g % 1000, g % 7 <> 0, md5(g::text) || md5((g * 31)::text) || md5((g * 17)::text)
         FROM generate_series(1, 20000) g`,
        [check],
      );
      const whole = await snapshot(bulk, '?start=1d');
      expect(whole.json('check_statuses.json')).toHaveLength(20000);
      expect(whole.json('manifest.json').files['check_statuses.json']).toMatchObject({ rows: 20000, truncated: false });

      const cookie = [...f.viewer.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const abort = new AbortController();
      const res = await fetch(`${f.t.url}/api/snapshot/topology/${bulk}?start=1d`, {
        headers: { cookie },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      abort.abort();
      await reader.read().catch(() => undefined);
      // the server goes on answering, and logged no error of its own
      expect((await f.viewer.get('/api/topology')).status).toBe(200);
      expect((await snapshot(f.id.alpha, '?start=1h')).json('checks.json')).toHaveLength(1);
      expect(f.t.logs.filter((l) => JSON.parse(l).level >= 50)).toEqual([]);
    });

    it('stops each file at its row limit and says so in the manifest', async () => {
      const scope = (await snapshotScope(db, f.id.alpha, false))!;
      const archive = snapshotArchive(db, scope, {
        start: new Date(Date.now() - 7 * 86_400_000),
        end: new Date(),
        related: false,
        signal: new AbortController().signal,
        log: (err) => {
          throw err;
        },
        limits: { checkStatuses: 2, configChanges: 1 },
      });
      const chunks: Buffer[] = [];
      for await (const chunk of archive) chunks.push(chunk as Buffer);
      const files = unzip(Buffer.concat(chunks));
      const json = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));
      // the newest rows are the ones kept
      expect(json('check_statuses.json').map((s: any) => s.message)).toEqual(['5 minutes ago', '25 minutes ago']);
      expect(json('config_changes.json').map((c: any) => c.change_type)).toEqual(['scaled']);
      expect(json('manifest.json').files).toMatchObject({
        'check_statuses.json': { rows: 2, truncated: true },
        'config_changes.json': { rows: 1, truncated: true },
        'checks.json': { rows: 1, truncated: false },
      });
    });
  });
}
