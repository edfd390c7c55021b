/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { topologyFixture, type Fixture } from './fixture.ts';

/**
 * GET /api/topology over HTTP (seed 002 section 7.2) against the fixture in fixture.ts: every
 * parameter, the sorts, flatten, hidden, 'All' dropped, refusals, access; then the lookups the
 * component sidebar reads through /api/db.
 */
const names = (list: any[]) => list.map((c) => c.name);
const ROOTS_BY_HEALTH = ['india', 'alpha', 'charlie', 'bravo', 'uniform'];

for (const driver of testDrivers()) {
  describe(`GET /api/topology (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let f: Fixture;
    const list = async (query = '', who = () => f.viewer) => {
      const r = await who().get(`/api/topology${query ? `?${query}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };

    beforeAll(async () => {
      db = await driver.open();
      f = await topologyFixture(db);
    });
    afterAll(async () => {
      await f?.t.app.close();
      await db?.dispose();
    });

    it('lists the roots by health (info, healthy, warning, unhealthy, unknown) with their direct children, and the filter choices', async () => {
      const body = await list();
      expect(names(body.components)).toEqual(ROOTS_BY_HEALTH);
      const alpha = body.components.find((c: any) => c.name === 'alpha');
      // hidden and deleted children are left out; children sorted the same way
      expect(names(alpha.components)).toEqual(['a-db', 'a-web']);
      // one level of nesting under the listed level
      expect(alpha.components[1].components).toBeUndefined();
      expect(alpha).toMatchObject({
        id: f.id.alpha,
        topology_id: f.id.topology,
        parent_id: null,
        path: '',
        agent_id: '00000000-0000-0000-0000-000000000000',
        type: 'Cluster',
        status: 'healthy',
        hidden: false,
        labels: { env: 'prod' },
        properties: [{ name: 'cpu', value: 40, headline: true }],
        summary: { checks: { unhealthy: 1 }, unhealthy: 1, healthy: 1 },
        teams: [{ id: f.id.Platform, name: 'Platform', icon: 'k8s' }],
        logs: [],
      });
      expect(alpha.components[1]).toMatchObject({
        name: 'a-web',
        path: f.id.alpha,
        logs: [{ name: 'app', type: 'file' }],
      });
      expect(typeof alpha.created_at).toBe('string');
      expect(body.teams).toEqual(['Payments', 'Platform']);
      expect(body.types).toEqual(['Cluster', 'Database', 'Pod', 'Service']);
      expect(body.healthStatuses).toEqual(['info', 'healthy', 'warning', 'unhealthy', 'unknown']);
    });

    it("drops the filter value 'All' and empty values", async () => {
      expect(names((await list('status=All&type=All&team=All&labels=All')).components)).toEqual(ROOTS_BY_HEALTH);
      expect(names((await list('status=&type=&team=')).components)).toEqual(ROOTS_BY_HEALTH);
    });

    it('filters by status: one, several, or excluded', async () => {
      expect(names((await list('status=unhealthy')).components)).toEqual(['bravo']);
      expect(names((await list('status=healthy,warning')).components)).toEqual(['alpha', 'charlie']);
      expect(names((await list('status=!healthy,!info')).components)).toEqual(['charlie', 'bravo', 'uniform']);
      // the choices stay those of the whole scope
      expect((await list('status=unhealthy')).healthStatuses).toHaveLength(5);
    });

    it('filters by type, on the roots or, flattened, at any depth', async () => {
      expect(names((await list('type=Cluster')).components)).toEqual(['alpha', 'bravo']);
      const flat = await list('type=Pod&flatten=true');
      expect(names(flat.components)).toEqual(['a-web-pod', 'b-pod']);
      expect(flat.components.every((c: any) => c.components === undefined)).toBe(true);
      expect(names((await list('type=Service,Database&flatten=true&sortBy=name')).components)).toEqual([
        'a-db',
        'a-web',
        'charlie',
        'india',
        'uniform',
      ]);
    });

    it('filters by team name or id, and by labels (all pairs must match)', async () => {
      expect(names((await list('team=Platform')).components)).toEqual(['alpha']);
      expect(names((await list(`team=${f.id.Payments}`)).components)).toEqual(['bravo']);
      expect(names((await list('team=Nobody')).components)).toEqual([]);
      expect(names((await list('labels=env=prod')).components)).toEqual(['alpha', 'charlie']);
      expect(names((await list('labels=env=prod,tier=db')).components)).toEqual(['charlie']);
      expect(names((await list('labels=env=prod,!tier=db')).components)).toEqual(['alpha']);
    });

    it('filters by agent', async () => {
      expect(names((await list(`agent_id=${f.id.edge}`)).components)).toEqual(['charlie']);
      const local = await list('agent_id=00000000-0000-0000-0000-000000000000');
      expect(names(local.components)).toEqual(['india', 'alpha', 'bravo', 'uniform']);
    });

    it('sorts by health, name, type, updated_at and a headline property, both ways', async () => {
      expect(names((await list('sortBy=status&sortOrder=desc')).components)).toEqual(ROOTS_BY_HEALTH);
      expect(names((await list('sortBy=status&sortOrder=asc')).components)).toEqual([...ROOTS_BY_HEALTH].reverse());
      expect(names((await list('sortBy=status')).components)).toEqual([...ROOTS_BY_HEALTH].reverse());
      expect(names((await list('sortBy=name')).components)).toEqual(['alpha', 'bravo', 'charlie', 'india', 'uniform']);
      expect(names((await list('sortBy=name&sortOrder=desc')).components)).toEqual([
        'uniform',
        'india',
        'charlie',
        'bravo',
        'alpha',
      ]);
      expect(names((await list('sortBy=type')).components)).toEqual(['alpha', 'bravo', 'charlie', 'india', 'uniform']);
      expect(names((await list('sortBy=type&sortOrder=desc')).components)).toEqual([
        'india',
        'uniform',
        'charlie',
        'alpha',
        'bravo',
      ]);
      // updated_at: alpha is the oldest
      expect(names((await list('sortBy=updated_at')).components)).toEqual([
        'alpha',
        'bravo',
        'charlie',
        'india',
        'uniform',
      ]);
      expect(names((await list('sortBy=updated_at&sortOrder=desc')).components)).toEqual([
        'uniform',
        'india',
        'charlie',
        'bravo',
        'alpha',
      ]);
      // a headline property: by its value, components without it last
      expect(names((await list('sortBy=cpu')).components)).toEqual(['alpha', 'bravo', 'charlie', 'india', 'uniform']);
      expect(names((await list('sortBy=cpu&sortOrder=desc')).components)).toEqual([
        'bravo',
        'alpha',
        'charlie',
        'india',
        'uniform',
      ]);
    });

    it('answers the first page of the listed level with limit, children included, in the same order', async () => {
      const whole = await list('sortBy=name&sortOrder=desc');
      const page = await list('sortBy=name&sortOrder=desc&limit=2');
      expect(names(page.components)).toEqual(['uniform', 'india']);
      expect(page.components).toEqual(whole.components.slice(0, 2));
      // the filter choices are the scope's, not the page's
      expect(page.types).toEqual(whole.types);
      expect(page.teams).toEqual(whole.teams);
      // under id: the page is of its children
      const alpha = await list(`id=${f.id.alpha}&sortBy=name&limit=1`);
      expect(names(alpha.components[0].components)).toEqual(['a-db']);
      // a page is not a cut: no truncation header
      const r = await f.viewer.get('/api/topology?limit=1');
      expect(r.headers.get('x-result-truncated')).toBeNull();
      expect(names((await list('limit=100')).components)).toEqual(ROOTS_BY_HEALTH);
    });

    it('shows hidden components only with hidden=true', async () => {
      const body = await list('hidden=true');
      expect(names(body.components)).toContain('hotel');
      expect(names(body.components.find((c: any) => c.name === 'alpha').components)).toEqual([
        'a-db',
        'a-hidden',
        'a-web',
      ]);
      expect(names((await list('hidden=false')).components)).not.toContain('hotel');
      expect(names((await list('type=Service&flatten=true&hidden=true')).components)).toContain('a-hidden');
      expect(names((await list('type=Service&flatten=true')).components)).not.toContain('a-hidden');
    });

    it('answers id with the component, its children (filtered and sorted) and their children', async () => {
      const body = await list(`id=${f.id.alpha}`);
      expect(names(body.components)).toEqual(['alpha']);
      const [alpha] = body.components;
      expect(names(alpha.components)).toEqual(['a-db', 'a-web']);
      expect(names(alpha.components[1].components)).toEqual(['a-web-pod']);
      expect(body.types).toEqual(['Database', 'Pod', 'Service']);
      expect(body.healthStatuses).toEqual(['healthy', 'unhealthy']);

      const unhealthy = await list(`id=${f.id.alpha}&status=unhealthy`);
      expect(names(unhealthy.components[0].components)).toEqual(['a-web']);
      const flat = await list(`id=${f.id.alpha}&type=Pod&flatten=true`);
      expect(names(flat.components)).toEqual(['a-web-pod']);
      // a leaf: itself with no children
      const leaf = await list(`id=${f.id['b-pod']}`);
      expect(leaf.components).toHaveLength(1);
      expect(leaf.components[0]).toMatchObject({ name: 'b-pod', components: [] });
    });

    it("answers 404 'Component not found' for an unknown or deleted id", async () => {
      for (const id of ['7e57e57e-0000-4000-8000-000000000000', f.id.delta]) {
        const r = await f.viewer.get(`/api/topology?id=${id}`);
        expect(r.status).toBe(404);
        expect(r.body).toMatchObject({ statusCode: 404, code: 'not_found', message: 'Component not found' });
      }
    });

    it('refuses bad input with a 400 naming the parameter', async () => {
      for (const [query, field, message] of [
        ['id=nope', 'id', 'id must be a component id'],
        ['agent_id=nope', 'agent_id', 'agent_id must be an agent id'],
        ['status=sleepy', 'status', /^status must be one of healthy, unhealthy, warning, unknown, info/],
        ['labels=env', 'labels', 'labels must be key=value pairs separated by commas'],
        ['labels==x', 'labels', 'labels must be key=value pairs separated by commas'],
        ['sortOrder=sideways', 'sortOrder', /sortOrder/],
        ['flatten=yes', 'flatten', /flatten/],
        ['hidden=1', 'hidden', /hidden/],
        ['type=a&type=b', 'type', /type/],
        [`sortBy=${'x'.repeat(201)}`, 'sortBy', /sortBy/],
        ['limit=0', 'limit', 'limit must be at least 1'],
        ['limit=-1', 'limit', 'limit must be a whole number'],
        ['limit=ten', 'limit', 'limit must be a whole number'],
        ['limit=1.5', 'limit', 'limit must be a whole number'],
      ] as const) {
        const r = await f.viewer.get(`/api/topology?${query}`);
        expect(r.status, query).toBe(400);
        expect(Object.keys(r.body.errors ?? {}), query).toContain(field);
        if (typeof message === 'string') expect(r.body.errors[field], query).toBe(message);
        else expect(r.body.errors[field], query).toMatch(message);
      }
    });

    it('lets a viewer read and refuses a caller without a session', async () => {
      expect((await f.viewer.get('/api/topology')).status).toBe(200);
      expect((await f.admin.get('/api/topology')).status).toBe(200);
      const anon = await f.anonymous.get('/api/topology');
      expect(anon.status).toBe(401);
      expect(anon.body).toMatchObject({ code: 'unauthenticated' });
    });

    it('serves the lookups the component sidebar reads through /api/db to a viewer', async () => {
      const get = async (path: string, headers?: Record<string, string>) => {
        const r = await f.viewer.get(`/api/db/${path}`, headers);
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
        return r;
      };
      expect((await get('component_names?select=id,name&order=name')).body.map((r: any) => r.name)).toContain(
        'a-web-pod',
      );
      expect((await get('components_with_logs?select=id,name,logs')).body).toEqual([
        { id: f.id['a-web'], name: 'a-web', logs: [{ name: 'app', type: 'file' }] },
      ]);
      expect((await get(`components?id=eq.${f.id.alpha}&select=id,name,status`)).body).toEqual([
        { id: f.id.alpha, name: 'alpha', status: 'healthy' },
      ]);
      expect((await get('component_labels?select=key,value&order=key,value')).body).toEqual(
        expect.arrayContaining([
          { key: 'env', value: 'prod' },
          { key: 'tier', value: 'db' },
        ]),
      );
      expect((await get(`checks?id=eq.${f.id['web-http']}&select=id,name`)).body).toHaveLength(1);
      expect((await get(`canaries?id=eq.${f.id.canary}&select=id,name`)).body).toHaveLength(1);
      expect(
        (await get(`team_components?component_id=eq.${f.id.alpha}&select=team_id,component_id,team:teams(name,icon)`))
          .body,
      ).toEqual([{ team_id: f.id.Platform, component_id: f.id.alpha, team: { name: 'Platform', icon: 'k8s' } }]);
      expect(
        (await get(`checks_by_component?component_id=eq.${f.id['a-web']}&select=id,name,status`)).body.map(
          (c: any) => c.name,
        ),
      ).toEqual(['web-http']);
      // incidents of a component, by type and status
      const incidents = (q: string) =>
        get(`incidents_by_component?component_id=eq.${f.id['a-web']}&select=id,title,type,status${q}`);
      expect((await incidents('&status=eq.open&type=eq.availability')).body.map((i: any) => i.title)).toEqual([
        'web is down',
      ]);
      expect((await incidents('&type=eq.security')).body).toEqual([]);
      expect(
        (
          await get(
            `config_changes_by_component?component_id=eq.${f.id['a-web']}&select=change_type&order=created_at.desc`,
          )
        ).body,
      ).toEqual([{ change_type: 'scaled' }, { change_type: 'deployed' }]);
      expect((await get(`configs_by_component?component_id=eq.${f.id['a-web']}&select=id,name`)).body).toEqual([
        { id: f.id['web-deploy'], name: 'web-deploy' },
      ]);
      // insights: paged by 50 with the total in Content-Range
      const insights = await get(
        `config_analysis_by_component?component_id=eq.${f.id['a-web']}&select=analysis_type,severity&limit=50&offset=0`,
        { prefer: 'count=exact' },
      );
      expect(insights.body).toEqual([{ analysis_type: 'reliability', severity: 'medium' }]);
      expect(insights.headers.get('content-range')).toBe('0-0/1');
    });
  });
}
