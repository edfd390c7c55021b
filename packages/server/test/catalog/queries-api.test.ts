/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser, startLoggedApp, type TestApp } from '../auth/support.ts';

const PASSWORD = 'correct horse battery staple';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * POST /api/catalog/summary, POST /api/catalog/changes and the manual link routes over HTTP,
 * against numbers worked out by hand from this fixture:
 *
 *   item  type             class       health     status   tags                         labels        deleted cost30d
 *   web   K::Deployment    Deployment  healthy    Running  ns=shop, cluster=eu          app=web       -       10
 *   api   K::Deployment    Deployment  unhealthy  Failed   ns=shop, cluster=eu          app=api       -       5.5
 *   db    K::StatefulSet   StatefulSet warning    Running  ns=data, cluster=eu          app=db        -       -
 *   pod   K::Pod           Pod         healthy    Running  ns=shop, cluster=us          app=web       -       -
 *   old   K::Pod           Pod         (null)     -        ns=shop, cluster=us          -             yes     -
 *   (web is pod's parent)
 *
 *   changes (created_at ago): web diff/info 1h, web diff/info 40d (outside 30 d), web scale/high 3d,
 *   api deploy/medium 2h (source argo, by bot), api diff/info 20d, db BackOff/high 30m (source kubelet),
 *   pod Pulled/info 10m, old deleted/info 1h
 *   open insights: api security high, api reliability, db security; one resolved on web
 */
for (const driver of testDrivers()) {
  describe(`catalog summary, changes and links over HTTP (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let admin: Browser;
    let viewer: Browser;
    const id: Record<string, string> = {};
    const name = (uuid: string) => Object.keys(id).find((k) => id[k] === uuid);

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db);
      await createIdentity(db, {
        traits: { email: 'root@example.com', name: { first: 'R', last: 'A' } },
        roles: ['admin'],
        password: PASSWORD,
      });
      await createIdentity(db, {
        traits: { email: 'val@example.com', name: { first: 'V', last: 'V' } },
        roles: ['viewer'],
        password: PASSWORD,
      });
      admin = new Browser(t.url);
      viewer = new Browser(t.url);
      expect((await admin.login('root@example.com', PASSWORD)).status).toBe(200);
      expect((await viewer.login('val@example.com', PASSWORD)).status).toBe(200);

      const items: [string, string, string, string | null, string | null, object, object, boolean, number | null][] = [
        [
          'web',
          'Kubernetes::Deployment',
          'Deployment',
          'healthy',
          'Running',
          { namespace: 'shop', cluster: 'eu' },
          { app: 'web' },
          false,
          10,
        ],
        [
          'api',
          'Kubernetes::Deployment',
          'Deployment',
          'unhealthy',
          'Failed',
          { namespace: 'shop', cluster: 'eu' },
          { app: 'api' },
          false,
          5.5,
        ],
        [
          'db',
          'Kubernetes::StatefulSet',
          'StatefulSet',
          'warning',
          'Running',
          { namespace: 'data', cluster: 'eu' },
          { app: 'db' },
          false,
          null,
        ],
        [
          'pod',
          'Kubernetes::Pod',
          'Pod',
          'healthy',
          'Running',
          { namespace: 'shop', cluster: 'us' },
          { app: 'web' },
          false,
          null,
        ],
        ['old', 'Kubernetes::Pod', 'Pod', null, null, { namespace: 'shop', cluster: 'us' }, {}, true, null],
      ];
      for (const [n, type, cls, health, status, tags, labels, deleted, cost] of items) {
        const r = await db.query<{ id: string }>(
          `INSERT INTO config_items (name, type, config_class, health, status, tags, labels, deleted_at, cost_total_30d)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          [
            n,
            type,
            cls,
            health,
            status,
            JSON.stringify(tags),
            JSON.stringify(labels),
            deleted ? new Date() : null,
            cost,
          ],
        );
        id[n] = r.rows[0].id;
      }
      await db.query(`UPDATE config_items SET parent_id = $1 WHERE id = $2`, [id.web, id.pod]);
      const changes: [string, string, string, number, string | null, string | null][] = [
        ['web', 'diff', 'info', HOUR, null, null],
        ['web', 'diff', 'info', 40 * DAY, null, null],
        ['web', 'scale', 'high', 3 * DAY, null, null],
        ['api', 'deploy', 'medium', 2 * HOUR, 'argo', 'bot'],
        ['api', 'diff', 'info', 20 * DAY, null, null],
        ['db', 'BackOff', 'high', 0.5 * HOUR, 'kubelet', null],
        ['pod', 'Pulled', 'info', HOUR / 6, 'kubelet', null],
        ['old', 'deleted', 'info', HOUR, null, null],
      ];
      for (const [n, type, sev, ago, source, by] of changes)
        await db.query(
          `INSERT INTO config_changes (config_id, change_type, severity, summary, source, external_created_by, created_at, first_observed)
           VALUES ($1, $2, $3, $4, $5, $6, now() - $7 * interval '1 millisecond', now() - $7 * interval '1 millisecond')`,
          [id[n], type, sev, `${n} ${type}`, source, by, ago],
        );
      for (const [n, type, sev, status] of [
        ['api', 'security', 'high', 'open'],
        ['api', 'reliability', 'medium', 'open'],
        ['db', 'security', 'low', 'open'],
        ['web', 'security', 'low', 'resolved'],
      ])
        await db.query(
          `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status) VALUES ($1, 'test', $2, $3, $4)`,
          [id[n], type, sev, status],
        );
    }, 300_000);
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    const summary = async (body: unknown) => {
      const r = await viewer.post('/api/catalog/summary', body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as any[];
    };

    it('summarises by config_class and type by default: counts, health, insights, 30-day changes, cost', async () => {
      expect(await summary({})).toEqual([
        {
          config_class: 'Deployment',
          type: 'Kubernetes::Deployment',
          count: 2,
          health: { healthy: 1, unhealthy: 1 },
          analysis: { security: 1, reliability: 1 },
          changes: 4, // web 1h + 3d, api 2h + 20d; web's 40 d change is outside
          cost_per_minute: null,
          cost_total_1d: null,
          cost_total_7d: null,
          cost_total_30d: 15.5,
        },
        {
          config_class: 'Pod',
          type: 'Kubernetes::Pod',
          count: 1,
          health: { healthy: 1 },
          analysis: {},
          changes: 1,
          cost_per_minute: null,
          cost_total_1d: null,
          cost_total_7d: null,
          cost_total_30d: null,
        },
        {
          config_class: 'StatefulSet',
          type: 'Kubernetes::StatefulSet',
          count: 1,
          health: { warning: 1 },
          analysis: { security: 1 },
          changes: 1,
          cost_per_minute: null,
          cost_total_1d: null,
          cost_total_7d: null,
          cost_total_30d: null,
        },
      ]);
    });

    it('groups by a tag, includes deleted items, filters by health, status, labels and tags', async () => {
      const byNs = await summary({ groupBy: ['namespace'], deleted: true });
      expect(byNs.map((r) => [r.namespace, r.count, r.health, r.changes])).toEqual([
        ['data', 1, { warning: 1 }, 1],
        ['shop', 4, { healthy: 2, unhealthy: 1, unknown: 1 }, 6],
      ]);
      const byCluster = await summary({ groupBy: ['tags.cluster', 'health'] });
      expect(byCluster.map((r) => [r['tags.cluster'], r.health, r.count])).toEqual([
        ['eu', { healthy: 1 }, 1],
        ['eu', { unhealthy: 1 }, 1],
        ['eu', { warning: 1 }, 1],
        ['us', { healthy: 1 }, 1],
      ]);
      const healthy = await summary({ groupBy: ['type'], health: 'healthy:1,warning:1' });
      expect(healthy.map((r) => [r.type, r.count])).toEqual([
        ['Kubernetes::Deployment', 1],
        ['Kubernetes::Pod', 1],
        ['Kubernetes::StatefulSet', 1],
      ]);
      const notFailed = await summary({ groupBy: ['type'], status: '!Failed', filter: { app: 'web' } });
      expect(notFailed.map((r) => [r.type, r.count])).toEqual([
        ['Kubernetes::Deployment', 1],
        ['Kubernetes::Pod', 1],
      ]);
      const unknown = await summary({ groupBy: ['type'], deleted: true, health: ['unknown'] });
      expect(unknown.map((r) => [r.type, r.count])).toEqual([['Kubernetes::Pod', 1]]);
      const tagged = await summary({ groupBy: ['type'], tags: 'cluster____eu,namespace____data:-1' });
      expect(tagged.map((r) => [r.type, r.count])).toEqual([['Kubernetes::Deployment', 2]]);
      const week = await summary({ groupBy: ['type'], changes: { since: '7d' } });
      expect(week.map((r) => [r.type, r.changes])).toEqual([
        ['Kubernetes::Deployment', 3],
        ['Kubernetes::Pod', 1],
        ['Kubernetes::StatefulSet', 1],
      ]);
    });

    it("groups by the page's derived choices (analysis, changed) and filters labels as key____value entries", async () => {
      // analysis: the open insight types of each item (web's resolved insight does not count); like
      // health, the group is answered under its counts
      const byAnalysis = await summary({ groupBy: 'analysis,type' });
      expect(byAnalysis.map((r) => [r.analysis, r.type, r.count])).toEqual([
        [{ security: 1, reliability: 1 }, 'Kubernetes::Deployment', 1],
        [{ security: 1 }, 'Kubernetes::StatefulSet', 1],
        [{}, 'Kubernetes::Deployment', 1],
        [{}, 'Kubernetes::Pod', 1],
      ]);
      // changed: any change in the window; within 2 days web (1h), api (2h), db (0.5h), pod (10 min)
      const changed = (await summary({ groupBy: ['type', 'changed'], changes: { since: '2d' } })).map((r) => [
        r.type,
        r.changed,
        r.count,
      ]);
      expect(changed).toEqual([
        ['Kubernetes::Deployment', true, 2],
        ['Kubernetes::Pod', true, 1],
        ['Kubernetes::StatefulSet', true, 1],
      ]);
      // the page's request: 30 days (the counters)
      const month = await summary({
        groupBy: ['changed'],
        changes: { since: '30d' },
        analysis: { since: '30d' },
        cost: '30d',
      });
      expect(month.map((r) => [r.changed, r.count])).toEqual([[true, 4]]);
      const hours = await summary({ groupBy: ['changed'], changes: { since: '1h' } });
      expect(hours.map((r) => [r.changed, r.count, r.changes])).toEqual([
        [false, 2, 0], // web's change is an hour old, api's two
        [true, 2, 2], // db 30 min, pod 10 min
      ]);
      const labelled = await summary({ groupBy: ['type'], labels: 'app____web:1' });
      expect(labelled.map((r) => [r.type, r.count])).toEqual([
        ['Kubernetes::Deployment', 1],
        ['Kubernetes::Pod', 1],
      ]);
      const notWeb = await summary({ groupBy: ['type'], labels: ['!app____web'] });
      expect(notWeb.map((r) => [r.type, r.count])).toEqual([
        ['Kubernetes::Deployment', 1],
        ['Kubernetes::StatefulSet', 1],
      ]);
      expect(await summary({ groupBy: ['type'], agent_id: '00000000-0000-0000-0000-00000000abcd' })).toEqual([]);
    });

    const changes = async (body: unknown) => {
      const r = await viewer.post('/api/catalog/changes', body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as { changes: any[]; total: number; page: number; pageSize: number };
    };
    const summaries = (r: { changes: any[] }) => r.changes.map((c) => c.summary);

    it('lists the last 2 days by default, newest first, hiding deleted items, with the total', async () => {
      const r = await changes({});
      expect(summaries(r)).toEqual(['pod Pulled', 'db BackOff', 'web diff', 'api deploy']);
      expect([r.total, r.page, r.pageSize]).toEqual([4, 1, 200]);
      expect(r.changes[0]).toMatchObject({
        config_id: id.pod,
        name: 'pod',
        type: 'Kubernetes::Pod',
        config: { id: id.pod, name: 'pod' },
      });
      const withDeleted = await changes({ include_deleted_configs: true });
      expect(withDeleted.total).toBe(5);
    });

    it('filters by type, severity, config type, tags, source, created_by and time, sorts and pages', async () => {
      const month = { from: 'now-30d' };
      expect(summaries(await changes({ ...month, changeType: 'diff:1' }))).toEqual(['web diff', 'api diff']);
      expect((await changes({ ...month, changeType: '!diff,!Pulled' })).total).toBe(3);
      expect(
        summaries(await changes({ ...month, severity: ['high'], sortBy: 'created_at', sortOrder: 'asc' })),
      ).toEqual(['web scale', 'db BackOff']);
      expect(summaries(await changes({ ...month, configTypes: 'Kubernetes::Pod,Kubernetes::StatefulSet' }))).toEqual([
        'pod Pulled',
        'db BackOff',
      ]);
      expect((await changes({ ...month, tags: ['namespace____shop', 'cluster____us:-1'] })).total).toBe(4);
      expect(
        summaries(await changes({ ...month, arbitraryFilter: { source: 'kubelet' }, external_created_by: undefined })),
      ).toEqual(['pod Pulled', 'db BackOff']);
      expect(summaries(await changes({ ...month, external_created_by: 'bot' }))).toEqual(['api deploy']);
      expect(summaries(await changes({ ...month, summary: 'web*' }))).toEqual(['web diff', 'web scale']);
      expect(summaries(await changes({ from: 'now-4d', to: 'now-1d' }))).toEqual(['web scale']);
      expect(summaries(await changes({ from: new Date(Date.now() - 1.5 * HOUR).toISOString() }))).toEqual([
        'pod Pulled',
        'db BackOff',
        'web diff',
      ]);
      const p2 = await changes({ ...month, pageSize: 2, page: 2, sortBy: 'severity', sortOrder: 'desc' });
      expect([p2.total, p2.changes.length]).toEqual([6, 2]);
      expect(p2.changes.map((c) => c.severity)).toEqual(['medium', 'info']);
    });

    it('lists a config with its downstream or upstream items', async () => {
      const month = { from: 'now-30d' };
      expect(summaries(await changes({ ...month, id: id.web }))).toEqual(['web diff', 'web scale']);
      expect(summaries(await changes({ ...month, id: id.web, type_filter: 'downstream' }))).toEqual([
        'pod Pulled',
        'web diff',
        'web scale',
      ]);
      expect(summaries(await changes({ ...month, id: id.pod, type_filter: 'upstream' }))).toEqual([
        'pod Pulled',
        'web diff',
        'web scale',
      ]);
      expect(summaries(await changes({ ...month, id: id.pod, type_filter: 'downstream' }))).toEqual(['pod Pulled']);
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const bad: [string, unknown, string][] = [
        ['/api/catalog/changes', { pageSize: 0 }, 'pageSize'],
        ['/api/catalog/changes', { pageSize: 5000 }, 'pageSize'],
        ['/api/catalog/changes', { page: 'two' }, 'page'],
        ['/api/catalog/changes', { sortBy: 'password' }, 'sortBy'],
        ['/api/catalog/changes', { sortOrder: 'up' }, 'sortOrder'],
        ['/api/catalog/changes', { from: 'yesterday-ish' }, 'from'],
        ['/api/catalog/changes', { id: 'not-a-uuid' }, 'id'],
        ['/api/catalog/changes', { type_filter: 'sideways', id: id.web }, 'type_filter'],
        ['/api/catalog/changes', { type_filter: 'upstream' }, 'type_filter'],
        ['/api/catalog/changes', { include_deleted_configs: 'yes' }, 'include_deleted_configs'],
        ['/api/catalog/changes', { changeType: 7 }, 'changeType'],
        ['/api/catalog/changes', { colour: 'red' }, 'body'],
        ['/api/catalog/summary', { groupBy: ['type; DROP TABLE x'] }, 'groupBy.0'],
        ['/api/catalog/summary', { changes: { since: 'forever' } }, 'changes.since'],
        ['/api/catalog/summary', { deleted: 'no' }, 'deleted'],
        ['/api/catalog/summary', { filter: ['app'] }, 'filter'],
        ['/api/catalog/summary', { cost: '2y' }, 'cost'],
      ];
      for (const [path, body, field] of bad) {
        const r = await viewer.post(path, body);
        expect(r.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.code).toBe('invalid_body');
        expect(Object.keys(r.body.errors ?? {}), JSON.stringify(r.body)).toContain(field);
        expect(r.body.message).toMatch(field === 'body' ? /unknown field colour/ : new RegExp(field.split('.')[0]));
      }
    });

    it('links and unlinks manually (admin), refuses a viewer, and unlinks only manual links', async () => {
      const link = { config_id: id.db, related_id: id.api, relation: 'serves' };
      const denied = await viewer.post('/api/catalog/links', link);
      expect(denied.status).toBe(403);
      expect(denied.body.message).toMatch(/write access to database/);
      const made = await admin.post('/api/catalog/links', link);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({
        config_id: id.db,
        related_id: id.api,
        relation: 'serves',
        selector_id: 'manual',
      });
      expect(made.body.created_by).toBeTruthy();
      expect((await admin.post('/api/catalog/links', link)).status).toBe(200);
      // the link shows in the graph of either end
      const g = await viewer.get(
        `/api/db/rpc/related_configs_recursive?config_id=${id.api}&type_filter=incoming&mode=both`,
      );
      expect(g.status, JSON.stringify(g.body)).toBe(200);
      expect(g.body.map((r: any) => name(r.id)).sort()).toEqual(['api', 'db']);
      const dbNode = g.body.find((r: any) => r.id === id.db);
      expect(dbNode.links).toEqual([
        { related_id: id.api, relation: 'serves', relation_type: 'soft', selector_id: 'manual' },
      ]);

      expect((await admin.post('/api/catalog/links', { config_id: id.db, related_id: id.db })).status).toBe(400);
      const missing = await admin.post('/api/catalog/links', {
        config_id: id.db,
        related_id: '00000000-0000-4000-8000-000000000001',
      });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toMatch(/not found/);
      // a scraper's link cannot be unlinked
      await db.query(
        `INSERT INTO config_relationships (config_id, related_id, relation, selector_id) VALUES ($1, $2, 'runs', 'scraper')`,
        [id.web, id.db],
      );
      const scraperLink = await admin.delete(`/api/catalog/links/${id.web}/${id.db}`);
      expect(scraperLink.status).toBe(409);
      expect(scraperLink.body.message).toMatch(/Only manual links can be unlinked/);
      expect((await viewer.delete(`/api/catalog/links/${id.db}/${id.api}`)).status).toBe(403);
      expect((await admin.delete(`/api/catalog/links/${id.db}/${id.api}`)).status).toBe(204);
      expect((await admin.delete(`/api/catalog/links/${id.db}/${id.api}`)).status).toBe(404);
      expect((await admin.delete(`/api/catalog/links/nope/${id.api}`)).status).toBe(400);
      const left = await db.query(`SELECT selector_id FROM config_relationships ORDER BY 1`);
      expect(left.rows).toEqual([{ selector_id: 'scraper' }]);
    });

    it('keeps the 30-day counters exact through folding, deletion and an old window start', async () => {
      // a folded repeat moves web's 40-day-old change into the window; deleting api's 20-day-old leaves it
      await db.query(
        `UPDATE config_changes SET created_at = now(), count = count + 1 WHERE config_id = $1 AND created_at < now() - interval '39 days'`,
        [id.web],
      );
      await db.query(`DELETE FROM config_changes WHERE config_id = $1 AND change_type = 'diff'`, [id.api]);
      // the window's start lags 10 days behind (advance() not run): reads subtract what lies before 30 days
      await db.query(`UPDATE config_change_window SET counted_from = now() - interval '45 days'`);
      await db.query(
        `INSERT INTO config_changes (config_id, change_type, created_at) VALUES ($1, 'diff', now() - interval '35 days')`,
        [id.db],
      );
      const rows = await summary({ groupBy: ['type'] });
      expect(rows.map((r) => [r.type, r.changes])).toEqual([
        ['Kubernetes::Deployment', 4],
        ['Kubernetes::Pod', 1],
        ['Kubernetes::StatefulSet', 1],
      ]);
      await db.query(`SELECT config_change_counts_advance()`);
      expect((await summary({ groupBy: ['type'] })).map((r) => r.changes)).toEqual([4, 1, 1]);
      const direct = await db.query<any>(
        `SELECT ci.name, count(cc.*)::int AS n FROM config_items ci LEFT JOIN config_changes cc ON cc.config_id = ci.id AND cc.created_at > now() - interval '30 days' GROUP BY ci.name ORDER BY 1`,
      );
      const counted = await db.query<any>(
        `SELECT ci.name, coalesce(c.changes, 0)::int AS n FROM config_items ci LEFT JOIN config_changes_30d c ON c.config_id = ci.id ORDER BY 1`,
      );
      expect(counted.rows).toEqual(direct.rows);
    });
  });
}
