/**
 * Every route the app registered (app.declaredRoutes, gathered by Fastify's onRoute), sent a
 * malformed id, a malformed query and a malformed body, as an administrator: each answers a 4xx
 * in the one error shape ({statusCode, code, error, message, errors}), never a 500 and never a
 * database's words. A route added tomorrow is walked without editing this file.
 *
 * Left out of the shape check (still walked for "no 500"): /api/db, which answers as PostgREST
 * does, and the identity flows, which answer as Kratos does (the web app reads those shapes).
 * The same malformed requests from a caller without a session, or without the permission, get
 * 401/403: the guard answers before the schemas say anything.
 */
import { STATUS_CODES } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { deniedBy } from '#server/auth/guard.ts';
import type { DeclaredRoute } from '#server/auth/index.ts';
import { Browser } from '../auth/support.ts';

const PASSWORD = 'route walk passphrase';
const NOWHERE = '7e57e57e-0000-4000-8000-000000000000';
/** Kratos-compatible routes (auth/flows, auth/own-provider.ts) */
const KRATOS = ['/api/auth/self-service/', '/api/auth/sessions/', '/api/auth/errors/'];
const DB_WORDS =
  /invalid input syntax|syntax error|relation "|column "|violates|duplicate key|SQLSTATE|22P02|23505|pg_|postgres|pglite/i;

/** Values a path parameter may be given that are not what it names. */
const BAD_PARAMS = ['not-a-uuid', "x' OR '1'='1", 'a'.repeat(400), '%2e%2e%2f', ' '];

const methodsOf = (r: DeclaredRoute) => [r.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
const ownShape = (r: DeclaredRoute) => !r.url.startsWith('/api/db') && !KRATOS.some((p) => r.url.startsWith(p));
const paramsOf = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
const fill = (url: string, values: Record<string, string>) =>
  url.replace(/:([A-Za-z_]+)/g, (_, k: string) => encodeURIComponent(values[k] ?? NOWHERE)).replace(/\*/g, 'x');

/** The keys of an object schema, looking through transforms, pipes and preprocessing. */
function keysOf(schema: unknown): string[] {
  const s = schema as { shape?: Record<string, unknown>; def?: Record<string, unknown> } | undefined;
  if (!s) return [];
  if (s.shape) return Object.keys(s.shape);
  const def = s.def ?? {};
  for (const inner of [def.in, def.out, def.innerType, def.schema]) {
    const keys = keysOf(inner);
    if (keys.length) return keys;
  }
  return [];
}

/** A path parameter value the route's schema refuses (undefined: the route takes any text). */
function badParam(route: DeclaredRoute, name: string): string | undefined {
  const schema = route.schema?.params as z.ZodType | undefined;
  if (!schema) return BAD_PARAMS[0];
  const others = Object.fromEntries(paramsOf(route.url).map((p) => [p, NOWHERE]));
  return BAD_PARAMS.find((v) => !schema.safeParse({ ...others, [name]: v }).success);
}

/** Every declared query parameter given twice (they are all single values). */
const badQuery = (keys: string[]) =>
  keys.length ? keys.map((k) => `${k}=${NOWHERE}&${k}=%27%3B--`).join('&') : 'id=1&id=2&limit=-1&order=%27%3B';

interface Answer {
  status: number;
  body: { errors?: Record<string, string>; message?: string } | undefined;
  text: string;
}

for (const driver of testDrivers()) {
  describe(`every route refuses malformed input in one shape (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    const as: Record<string, Browser> = {};
    let routes: DeclaredRoute[] = [];

    /** A request with a raw body (so malformed JSON can be sent), as the given browser. */
    async function send(who: Browser | undefined, method: string, path: string, body?: string): Promise<Answer> {
      const headers: Record<string, string> = { accept: 'application/json', origin: new URL(app.url).origin };
      if (who?.cookies.size) headers.cookie = [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(app.url + path, { method, headers, body, redirect: 'manual' });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed as Answer['body'], text };
    }

    /** No 500, no database words; for the app's own routes a 4xx in the one shape. */
    function expectRefused(route: DeclaredRoute, what: string, r: Answer, field?: string) {
      const label = `${what}: ${r.status} ${r.text.slice(0, 300)}`;
      expect(r.status, label).toBeLessThan(500);
      expect(r.text, label).not.toMatch(DB_WORDS);
      if (!ownShape(route)) return;
      expect(r.status, label).toBeGreaterThanOrEqual(400);
      expect(r.body, label).toMatchObject({
        statusCode: r.status,
        code: expect.any(String),
        error: STATUS_CODES[r.status],
        message: expect.stringMatching(/\S/),
      });
      if (field) {
        expect(r.status, label).toBe(400);
        expect(Object.keys(r.body?.errors ?? {}), label).toContain(field);
        expect(r.body?.message, label).toBe(Object.values(r.body?.errors ?? {})[0]);
      }
    }

    beforeAll(async () => {
      db = await driver.open();
      // engines are not started here: an API-only process, so /api/health/ready answers 200
      app = await startApp(db, { role: 'api' });
      for (const role of ['admin', 'viewer']) {
        const email = `${role}@walk.test`;
        await createIdentity(db, {
          traits: { email, name: { first: role, last: 'Walk' } },
          roles: [role],
          password: PASSWORD,
        });
        as[role] = new Browser(app.url);
        expect((await as[role].login(email, PASSWORD)).status, `sign in as ${role}`).toBe(200);
      }
      // the logout routes would end the session the walk runs in (they take no input)
      routes = app.app.declaredRoutes.filter(
        (r) => r.url.startsWith('/api/') && methodsOf(r).length && !r.url.includes('logout'),
      );
    });
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('finds the routes of every area', () => {
      const urls = new Set(routes.map((r) => r.url));
      for (const u of [
        '/api/auth/users/:id',
        '/api/auth/tokens/:id',
        '/api/properties/:name',
        '/api/connection/test/:id',
        '/api/canary/run/check/:id',
        '/api/canary/api/summary',
        '/api/incidents/responder-options',
        '/api/schemas/:file',
        '/api/about',
      ])
        expect(urls, u).toContain(u);
    });

    it('has every route of its own declare params, querystring and body schemas (a GET has no body)', () => {
      const missing = routes
        .filter(ownShape)
        .filter(
          (r) =>
            !(r.schema?.params && r.schema.querystring && (r.schema.body || methodsOf(r).every((m) => m === 'GET'))),
        )
        .map((r) => `${methodsOf(r).join(',')} ${r.url}`);
      expect(missing).toEqual([]);
    });

    it('answers a malformed id with a 400 naming the parameter', async () => {
      let walked = 0;
      for (const route of routes) {
        for (const name of paramsOf(route.url)) {
          const bad = badParam(route, name);
          if (bad === undefined) continue;
          for (const method of methodsOf(route)) {
            const r = await send(
              as.admin,
              method,
              fill(route.url, { [name]: bad }),
              method === 'GET' ? undefined : '{}',
            );
            expectRefused(
              route,
              `${method} ${route.url} with ${name}=${bad.slice(0, 20)}`,
              r,
              ownShape(route) ? name : undefined,
            );
            walked++;
          }
        }
      }
      expect(walked).toBeGreaterThan(8);
    });

    it('answers a malformed query with a 400 naming the parameter, or ignores parameters it does not take', async () => {
      let refused = 0;
      for (const route of routes) {
        const keys = keysOf(route.schema?.querystring);
        for (const method of methodsOf(route)) {
          const r = await send(
            as.admin,
            method,
            `${fill(route.url, {})}?${badQuery(keys)}`,
            method === 'GET' ? undefined : '{}',
          );
          const what = `${method} ${route.url} ?${keys.join(',') || '(none)'}`;
          if (keys.length) {
            expectRefused(route, what, r, ownShape(route) ? keys[0] : undefined);
            refused++;
          } else {
            expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
            // the API's description names PostgREST, whose contract /api/db follows; the playbook
            // spec's JSON schema names the sql action's drivers (postgres, mysql)
            if (!route.url.startsWith('/api/openapi') && route.url !== '/api/playbook/schema.json')
              expect(r.text, what).not.toMatch(DB_WORDS);
          }
        }
      }
      expect(refused).toBeGreaterThan(4);
    });

    it('answers a malformed body (a list, broken JSON, wrong types) with a 400', async () => {
      let walked = 0;
      for (const route of routes) {
        for (const method of methodsOf(route)) {
          if (method === 'GET') continue;
          const path = fill(route.url, {});
          const keys = keysOf(route.schema?.body);
          const wrongTypes = JSON.stringify(
            Object.fromEntries((keys.length ? keys : ['x']).map((k) => [k, { $ne: null }])),
          );
          for (const body of ['[1,2,3]', '{"unclosed": ', wrongTypes, '"text"', 'null']) {
            const r = await send(as.admin, method, path, body);
            const what = `${method} ${route.url} body ${body.slice(0, 40)}`;
            if (body === 'null' && !keys.length) {
              // null is no body: a route that takes none may go on (e.g. a 404 for the unknown id)
              expect(r.status, what).toBeLessThan(500);
              continue;
            }
            expectRefused(route, what, r, ownShape(route) && body === '[1,2,3]' ? 'body' : undefined);
            walked++;
          }
        }
      }
      expect(walked).toBeGreaterThan(40);
    });

    it('lets the guard answer first: 401 without a session, 403 without the permission', async () => {
      for (const route of routes.filter(ownShape)) {
        if (route.config.public) continue;
        for (const method of methodsOf(route)) {
          const path = `${fill(route.url, Object.fromEntries(paramsOf(route.url).map((p) => [p, 'not-a-uuid'])))}?${badQuery(keysOf(route.schema?.querystring))}`;
          const body = method === 'GET' ? undefined : '[1,2,3]';
          const anon = await send(undefined, method, path, body);
          expect(anon.status, `anonymous ${method} ${route.url}: ${anon.text}`).toBe(401);
          expect(anon.body).toMatchObject({ statusCode: 401, code: 'unauthenticated', error: 'Unauthorized' });
          expect(anon.text).not.toMatch(/must be|errors/);
          if (deniedBy(['viewer'], route.config.access)) {
            const viewer = await send(as.viewer, method, path, body);
            expect(viewer.status, `viewer ${method} ${route.url}: ${viewer.text}`).toBe(403);
            expect(viewer.body).toMatchObject({ statusCode: 403, code: 'forbidden', error: 'Forbidden' });
            expect(viewer.text).not.toMatch(/must be|errors/);
          }
        }
      }
    });
  });
}
