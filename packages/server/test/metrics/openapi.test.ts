/**
 * GET /api/openapi.json on both drivers: a valid OpenAPI 3.1 document (checked by
 * @seriousme/openapi-schema-validator) listing every registered /api route outside /api/db with
 * its path, query and body schemas, and /api/db once as the PostgREST-compatible entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

/** Kratos-compatible flows take forms as Kratos does (the route walk exempts them too) */
const KRATOS = ['/api/auth/self-service/', '/api/auth/sessions/', '/api/auth/errors/'];

interface Operation {
  parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
  requestBody?: unknown;
  security?: unknown[];
}

for (const driver of testDrivers()) {
  describe(`GET /api/openapi.json (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
    beforeAll(async () => {
      db = await driver.open();
      app = await startApp(db);
      // public: no session
      const res = await fetch(`${app.url}/api/openapi.json`);
      expect(res.status).toBe(200);
      doc = (await res.json()) as typeof doc;
    });
    afterAll(async () => {
      await app?.app.close();
      await db?.dispose();
    });

    it('is a valid OpenAPI 3.1 document', async () => {
      const validator = new Validator();
      const res = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
      expect(res.errors ?? [], JSON.stringify(res.errors)).toEqual([]);
      expect(res.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it('lists every registered route outside /api/db with its schemas', () => {
      let listed = 0;
      for (const route of app.app.declaredRoutes) {
        if (!route.url.startsWith('/api/') || route.url.startsWith('/api/db')) continue;
        const path = route.url.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\*$/, '{path}');
        for (const method of [route.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS')) {
          const op = doc.paths[path]?.[method.toLowerCase()];
          expect(op, `${method} ${route.url}`).toBeDefined();
          const inPath = (op!.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
          expect(inPath, `${method} ${route.url}`).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
          // every route declares its schemas (the route walk insists): the document carries them
          if (method !== 'GET' && !KRATOS.some((k) => route.url.startsWith(k)))
            expect(op!.requestBody, `${method} ${route.url}`).toBeDefined();
          listed++;
        }
      }
      expect(listed).toBeGreaterThan(30);
      // a uuid path parameter keeps its format; a query parameter its type; public routes say so
      expect(doc.paths['/api/auth/tokens/{id}']?.delete?.parameters?.[0]).toMatchObject({
        in: 'path',
        schema: { type: 'string' },
      });
      expect(doc.paths['/api/health/ready']?.get?.security).toEqual([]);
      expect(Object.keys(doc.paths['/api/db/{table}'])).toEqual(['get', 'post', 'patch', 'delete']);
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/db'))).toEqual(['/api/db/{table}']);
    });

    it('is served as a readable page too', async () => {
      const res = await fetch(`${app.url}/api/openapi`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await res.text();
      expect(page).toContain('<code>/api/health/ready</code>');
      expect(page).toContain('<code>/api/incidents/responder-instances</code>');
      expect(page).not.toMatch(/<script/i);
      // schema patterns and the like are escaped, never markup
      expect(page).toContain('&lt;token&gt;');
    });
  });
}
