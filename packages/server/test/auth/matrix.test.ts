/**
 * The role/permission matrix over HTTP. Cases are generated from core's MATRIX, the server's
 * exposed tables and the routes the app actually registered (app.declaredRoutes), so a change to
 * any of them is tested without editing this file:
 *   - every /api/db table, for every role: GET needs read on the table's resource, POST/PATCH/DELETE
 *     need write (401 without a caller, 403 naming resource, action and table otherwise);
 *   - every guarded /api route, for every role: 403 naming the missing permission, 401 signed out;
 *     allowed GETs and a few harmless writes are made to show they pass the guard;
 *   - with every feature switched off, the tables and routes of a feature answer 404.
 * MATRIX itself is compared with a transcription of the seed's table first, so the HTTP cases
 * do not merely restate the implementation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  can,
  FEATURES,
  MATRIX,
  normaliseResource,
  permissionsOf,
  RESOURCES,
  ROLES,
  type Action,
} from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { exposedTables } from '#server/db/exposed.ts';
import { TABLE_FEATURES } from '#server/properties/features.ts';
import type { DeclaredRoute } from '#server/auth/index.ts';
import type { AccessRule, CustomRule } from '#server/auth/guard.ts';
import { Browser } from './support.ts';

const PASSWORD = 'matrix test passphrase';
/** an id no row has (the nil uuid is taken: it is the local agent) */
const NOWHERE = '7e57e57e-0000-4000-8000-000000000000';

// ---- seed 000 section 6, transcribed by hand --------------------------------------------------

const SEED_RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'properties',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
];
const allBut = (...except: string[]) => SEED_RESOURCES.filter((r) => !except.includes(r));
const INCIDENT_WORK = ['responder', 'incident', 'evidences', 'comments'];
const SEED_TABLE: Record<string, Record<Action, string[]>> = {
  admin: { read: SEED_RESOURCES, write: SEED_RESOURCES },
  editor: { read: SEED_RESOURCES, write: allBut('connections', 'identities', 'rbac') },
  commander: { read: allBut('rbac', 'identities', 'connections'), write: INCIDENT_WORK },
  responder: { read: allBut('rbac', 'identities', 'connections'), write: INCIDENT_WORK },
  viewer: { read: allBut('rbac', 'identities', 'connections'), write: [] },
};

describe('the matrix in core', () => {
  it('is the seed table: five roles, twenty resources, the same cells', () => {
    expect([...ROLES]).toEqual(['admin', 'editor', 'commander', 'responder', 'viewer']);
    expect([...RESOURCES].sort()).toEqual([...SEED_RESOURCES].sort());
    for (const role of ROLES) {
      for (const action of ['read', 'write'] as const) {
        expect([...MATRIX[role][action]].sort(), `${role} ${action}`).toEqual([...SEED_TABLE[role][action]].sort());
      }
    }
  });

  it('counts a person without roles as viewer and shows the highest of admin, editor, viewer', () => {
    expect(permissionsOf([])).toEqual(permissionsOf(['viewer']));
    expect(permissionsOf(['no-such-role'])).toEqual(permissionsOf(['viewer']));
    // several roles: the union
    expect(can(['viewer', 'commander'], 'incident', 'write')).toBe(true);
    expect(can(['commander'], 'feature_flags', 'read')).toBe(true); // seed 002's name for properties
    expect(can(['editor'], 'feature_flags', 'write')).toBe(true);
    expect(can(['admin'], 'no_such_resource', 'read')).toBe(false);
  });
});

// ---- what the server exposes ------------------------------------------------------------------

/** The RBAC resource of an /api/db table, as authorize-table.ts resolves it. */
const tableResource = (table: string) => normaliseResource(exposedTables[table].resource) ?? 'database';
const TABLES = Object.keys(exposedTables).filter((t) => !t.startsWith('rpc/'));
const WRITABLE = TABLES.filter((t) => !exposedTables[t].readOnly);

type Rule = AccessRule | CustomRule;
const rulesOf = (r: DeclaredRoute): Rule[] => {
  const a = r.config.access;
  return a === undefined ? [] : Array.isArray(a) ? a : [a];
};
const methodsOf = (r: DeclaredRoute) => [r.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
/** A concrete path for a route pattern: ids become one no row has (nothing real is touched). */
const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, NOWHERE).replace(/\*/g, 'x');
/** The rule the guard should refuse with, judged from the matrix (custom rules by their own check). */
const refusedBy = (roles: string[], rules: Rule[]) =>
  rules.find((rule) => ('check' in rule ? !rule.check(roles) : !can(roles, rule.resource, rule.action)));
const forbidden = (rule: Rule) => ({
  statusCode: 403,
  code: 'forbidden',
  error: 'Forbidden',
  ...('check' in rule
    ? { message: `Forbidden: you are not allowed to ${rule.label}` }
    : {
        message: `Forbidden: ${rule.action} access to ${rule.resource} is required`,
        resource: rule.resource,
        action: rule.action,
      }),
});

/**
 * Writes that are safe to make for a role allowed to: they pass the guard and then stop at
 * validation or at an unknown id. Any other allowed write is left alone (it could change data).
 */
const HARMLESS_WRITES: Record<string, { body?: unknown; status: number }> = {
  'POST /api/auth/invite_user': { body: {}, status: 400 },
  'PATCH /api/auth/users/:id': { body: {}, status: 404 },
  'DELETE /api/auth/users/:id': { status: 404 },
  'POST /api/connection/test/:id': { status: 404 },
  'POST /api/properties': { body: {}, status: 400 },
  'DELETE /api/properties/:name': { status: 404 },
};

/** People to sign in as: one per role, plus one with no roles at all (counts as viewer). */
const PERSONAS: { name: string; roles: string[] }[] = [
  ...ROLES.map((r) => ({ name: r, roles: [r] })),
  { name: 'no roles', roles: [] },
];

for (const driver of testDrivers()) {
  describe(`role matrix over HTTP (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    const as: Record<string, Browser> = {};
    let anon: Browser;
    /** per table: a column to filter on so a write matches nothing, and one to set */
    const probe: Record<string, { filter: string; set: string }> = {};
    let routes: DeclaredRoute[] = [];

    beforeAll(async () => {
      db = await driver.open();
      app = await startApp(db);
      anon = new Browser(app.url);
      for (const p of PERSONAS) {
        const email = `${p.name.replace(' ', '-')}@matrix.test`;
        await createIdentity(db, {
          traits: { email, name: { first: p.name, last: 'Matrix' } },
          roles: p.roles,
          password: PASSWORD,
        });
        as[p.name] = new Browser(app.url);
        const login = await as[p.name].login(email, PASSWORD);
        expect(login.status, `sign in as ${p.name}`).toBe(200);
      }
      const cols = await db.query<{ table_name: string; column_name: string; data_type: string }>(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
          WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      );
      for (const t of WRITABLE) {
        const mine = cols.rows.filter((c) => c.table_name === t);
        const uuidCol = mine.find((c) => c.column_name === 'id') ?? mine.find((c) => c.data_type === 'uuid');
        expect(uuidCol, `${t} has a uuid column to aim a harmless write at`).toBeDefined();
        const set = mine.find((c) => c.column_name === 'updated_at') ?? mine.find((c) => c !== uuidCol) ?? uuidCol!;
        probe[t] = { filter: uuidCol!.column_name, set: set.column_name };
      }
      routes = app.app.declaredRoutes.filter(
        (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/db') && !r.config.public && methodsOf(r).length,
      );
    });
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('answers whoami with the permissions of the matrix for every role', async () => {
      for (const p of PERSONAS) {
        const r = await as[p.name].get('/api/auth/whoami');
        expect(r.status).toBe(200);
        expect(r.body.permissions, p.name).toEqual(permissionsOf(p.roles));
      }
    });

    it('refuses every /api/db table and every guarded route without a caller (401)', async () => {
      for (const t of TABLES) {
        const r = await anon.get(`/api/db/${t}?limit=1`);
        expect(r.status, `GET ${t}`).toBe(401);
        expect(r.body.message).toMatch(/Authentication required/);
      }
      for (const t of WRITABLE) expect((await anon.post(`/api/db/${t}`, [])).status, `POST ${t}`).toBe(401);
      for (const route of routes) {
        for (const m of methodsOf(route)) {
          const r = await anon.request(m, concrete(route.url), m === 'GET' || m === 'DELETE' ? undefined : {});
          expect(r.status, `${m} ${route.url}`).toBe(401);
        }
      }
    });

    it('guards every area route it found (none left without a rule)', () => {
      expect(routes.length).toBeGreaterThan(5);
      const unguarded = routes.filter((r) => r.config.access === undefined).map((r) => `${r.method} ${r.url}`);
      expect(unguarded).toEqual([]);
    });

    // Resources reachable over HTTP get a case per role; the rest must really have no surface.
    const surface = (resource: string) => TABLES.some((t) => tableResource(t) === resource);
    it('knows which resources have no table (their routes, if any, are covered below)', () => {
      expect(RESOURCES.filter((r) => !surface(r)).sort()).toEqual(['auth', 'kratos']);
    });

    for (const p of PERSONAS) {
      for (const resource of RESOURCES.filter(surface)) {
        const mayRead = can(p.roles, resource, 'read');
        const mayWrite = can(p.roles, resource, 'write');
        it(`${p.name} · ${resource}: read ${mayRead ? 'allowed' : 'refused'}, write ${mayWrite ? 'allowed' : 'refused'}`, async () => {
          const b = as[p.name];
          for (const t of TABLES.filter((x) => tableResource(x) === resource)) {
            const r = await b.get(`/api/db/${t}?limit=1`);
            if (mayRead) {
              expect(r.status, `GET ${t}: ${JSON.stringify(r.body)}`).toBe(200);
              expect(Array.isArray(r.body)).toBe(true);
            } else {
              expect(r.status, `GET ${t}`).toBe(403);
              expect(r.body).toMatchObject({
                code: '42501',
                message: `Forbidden: read access to ${resource} (table ${t}) is required`,
              });
            }
          }
          for (const t of WRITABLE.filter((x) => tableResource(x) === resource)) {
            const { filter, set } = probe[t];
            const where = `?${filter}=eq.${NOWHERE}`;
            const attempts = [
              { what: `POST ${t}`, res: await b.post(`/api/db/${t}`, []), ok: 201 },
              { what: `PATCH ${t}`, res: await b.patch(`/api/db/${t}${where}`, { [set]: null }), ok: 204 },
              { what: `DELETE ${t}`, res: await b.delete(`/api/db/${t}${where}`), ok: 204 },
            ];
            for (const a of attempts) {
              if (mayWrite) {
                expect(a.res.status, `${a.what}: ${JSON.stringify(a.res.body)}`).toBe(a.ok);
              } else {
                expect(a.res.status, a.what).toBe(403);
                expect(a.res.body).toMatchObject({
                  code: '42501',
                  message: `Forbidden: write access to ${resource} (table ${t}) is required`,
                });
              }
            }
          }
        });
      }
    }

    for (const p of PERSONAS) {
      it(`${p.name} · every guarded area route: refused with 403 exactly where the matrix says`, async () => {
        const b = as[p.name];
        let checked = 0;
        for (const route of routes) {
          const rules = rulesOf(route);
          for (const m of methodsOf(route)) {
            const key = `${m} ${route.url}`;
            const path = concrete(route.url);
            const denied = refusedBy(p.roles, rules);
            if (denied) {
              const r = await b.request(m, path, m === 'GET' || m === 'DELETE' ? undefined : {});
              expect(r.status, key).toBe(403);
              expect(r.body, key).toEqual(forbidden(denied));
              checked++;
            } else if (m === 'GET') {
              const r = await b.get(path);
              expect([401, 403], `${key} -> ${r.status}`).not.toContain(r.status);
              expect(r.status, `${key}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
              checked++;
            } else if (HARMLESS_WRITES[key]) {
              const w = HARMLESS_WRITES[key];
              const r = await b.request(m, path, w.body);
              expect(r.status, `${key}: ${JSON.stringify(r.body)}`).toBe(w.status);
              checked++;
            }
          }
        }
        expect(checked).toBeGreaterThan(0);
      });
    }

    it('knows every harmless write it makes (a renamed route fails here instead of going untested)', () => {
      const keys = routes.flatMap((r) => methodsOf(r).map((m) => `${m} ${r.url}`));
      for (const key of Object.keys(HARMLESS_WRITES)) expect(keys, key).toContain(key);
    });

    it('routes of the users page and the connection test follow the matrix (named, so a rename fails here)', () => {
      const rule = (m: string, url: string) => {
        const r = routes.find((x) => x.url === url && methodsOf(x).includes(m));
        expect(r, `${m} ${url} is registered`).toBeDefined();
        return { rules: rulesOf(r!), feature: r!.config.feature };
      };
      expect(rule('GET', '/api/auth/users')).toEqual({
        rules: [{ resource: 'identities', action: 'read' }],
        feature: 'settings.users',
      });
      for (const [m, url] of [
        ['POST', '/api/auth/invite_user'],
        ['PATCH', '/api/auth/users/:id'],
        ['DELETE', '/api/auth/users/:id'],
      ]) {
        expect(rule(m, url)).toEqual({
          rules: [{ resource: 'identities', action: 'write' }],
          feature: 'settings.users',
        });
      }
      expect(rule('POST', '/api/connection/test/:id')).toEqual({
        rules: [{ resource: 'connections', action: 'write' }],
        feature: 'settings.connections',
      });
    });

    it('lets a personal access token do exactly what its owner may', async () => {
      const created = await as.commander.post('/api/auth/tokens', { name: 'matrix' });
      expect(created.status).toBe(201);
      const bearer = { authorization: `Bearer ${created.body.token}` };
      const t = new Browser(app.url);
      expect((await t.get('/api/db/incidents?limit=1', bearer)).status).toBe(200);
      expect((await t.request('POST', '/api/db/incidents', [], bearer)).status).toBe(201);
      expect((await t.request('POST', '/api/db/canaries', [], bearer)).status).toBe(403);
      expect((await t.get('/api/db/connections?limit=1', bearer)).status).toBe(403);
      expect((await t.get('/api/auth/users', bearer)).status).toBe(403);
    });
  });

  describe(`disabled features over HTTP (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    let admin: Browser;

    beforeAll(async () => {
      db = await driver.open();
      // every feature off, through the read-only local flags (no cache to wait for)
      const localProperties = Object.fromEntries(FEATURES.map((f) => [`${f}.disable`, 'true']));
      app = await startApp(db, { localProperties });
      await createIdentity(db, {
        traits: { email: 'root@matrix.test', name: { first: 'Root', last: 'Matrix' } },
        roles: ['admin'],
        password: PASSWORD,
      });
      admin = new Browser(app.url);
      expect((await admin.login('root@matrix.test', PASSWORD)).status).toBe(200);
    });
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('answers 404 for every table of a disabled feature, even to an admin', async () => {
      for (const [table, feature] of Object.entries(TABLE_FEATURES)) {
        if (!exposedTables[table]) continue;
        const r = await admin.get(`/api/db/${table}?limit=1`);
        expect(r.status, `${table} (${feature})`).toBe(404);
        expect(r.body.hint).toBe(`the feature '${feature}' is disabled`);
      }
      // tables no feature owns stay
      expect((await admin.get('/api/db/people?limit=1')).status).toBe(200);
    });

    it('answers 404 for every route of a disabled feature, even to an admin', async () => {
      const featured = app.app.declaredRoutes.filter((r) => r.url.startsWith('/api/') && r.config.feature);
      expect(featured.length).toBeGreaterThan(0);
      for (const route of featured) {
        for (const m of methodsOf(route)) {
          const r = await admin.request(m, concrete(route.url), m === 'GET' || m === 'DELETE' ? undefined : {});
          expect(r.status, `${m} ${route.url}`).toBe(404);
          expect(r.body.message).toMatch(/not found/);
        }
      }
      // routes without a feature stay
      expect((await admin.get('/api/auth/whoami')).status).toBe(200);
    });
  });
}
