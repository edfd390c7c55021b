/**
 * GET /api/openapi.json: an OpenAPI 3.1 document generated from the zod schemas every route
 * declares (app.declaredRoutes, http/validation.ts), so it cannot drift from what the server
 * checks. /api/db is one PostgREST-compatible entry pointing at its own contract (DESIGN.md
 * section 3) rather than one path per table.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PUBLIC, type DeclaredRoute } from '../auth/index.ts';
import { noReadInput, typed } from '../http/validation.ts';

type JsonSchema = Record<string, unknown>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A zod schema as JSON Schema (2020-12, which OpenAPI 3.1 uses), as a client sends it. */
function jsonSchema(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const propertiesOf = (s: JsonSchema | undefined) => {
  const props = (s?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s?.required ?? []) as string[]);
  return Object.entries(props).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
};

/** /api/incidents/:id -> /api/incidents/{id}; a trailing * -> {path} */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\*$/, '{path}');

const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'code', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

function openApiDocument(routes: readonly DeclaredRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/db')) continue;
    const path = openApiPath(route.url);
    for (const method of [route.method].flat().filter((m) => METHODS.includes(m))) {
      const params = propertiesOf(jsonSchema(route.schema?.params));
      const pathNames = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const parameters = [
        ...pathNames.map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: params.find((p) => p.name === name)?.schema ?? { type: 'string' },
        })),
        ...propertiesOf(jsonSchema(route.schema?.querystring)).map((p) => ({
          name: p.name,
          in: 'query',
          required: p.required,
          schema: p.schema,
        })),
      ];
      const body = method === 'GET' ? undefined : jsonSchema(route.schema?.body);
      const access = route.config.public
        ? 'public'
        : route.config.access && !Array.isArray(route.config.access) && 'resource' in route.config.access
          ? `${route.config.access.action} access to ${route.config.access.resource}`
          : 'a signed-in caller';
      (paths[path] ??= {})[method.toLowerCase()] = {
        operationId: `${method.toLowerCase()} ${route.url}`,
        tags: [route.url.split('/')[2]],
        'x-watchdeck-access': access,
        ...(route.config.public ? { security: [] } : {}),
        ...(parameters.length ? { parameters } : {}),
        ...(body ? { requestBody: { content: { 'application/json': { schema: body } } } } : {}),
        responses: {
          '200': { description: 'the answer' },
          default: { $ref: '#/components/responses/Error' },
        },
      };
    }
  }
  const table = { name: 'table', in: 'path', required: true, schema: { type: 'string' } };
  const pgrest = (summary: string) => ({
    summary,
    tags: ['db'],
    description:
      'PostgREST-compatible (https://postgrest.org): filters, select, order, limit/offset, Prefer and Range as PostgREST ' +
      'defines them, on the tables and views the server exposes; errors as PostgREST answers them.',
    parameters: [table],
    responses: {
      '200': { description: 'rows' },
      default: { description: 'a PostgREST error {code, message, details, hint}' },
    },
  });
  paths['/api/db/{table}'] = {
    get: pgrest('read rows'),
    post: pgrest('insert rows'),
    patch: pgrest('update the rows the filters select'),
    delete: pgrest('delete the rows the filters select'),
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Watchdeck', version },
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'watchdeck_session' },
        token: { type: 'http', scheme: 'bearer' },
      },
      responses: {
        Error: {
          description: 'an error in the one error shape',
          content: { 'application/json': { schema: ERROR_BODY } },
        },
      },
    },
    security: [{ session: [] }, { token: [] }],
  };
}

const html = (v: unknown) =>
  String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A parameter's or body's type in a few words: its type, format, enum or pattern. */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
  const t = Array.isArray(schema.type) ? schema.type.join(' | ') : ((schema.type as string | undefined) ?? 'any');
  return [t, schema.format, schema.pattern ? `matching ${String(schema.pattern)}` : ''].filter(Boolean).join(', ');
}

/**
 * The same document as one readable page, rendered here (no script, nothing fetched from
 * elsewhere): operations by tag with their access rule, parameters and body schema.
 */
function openApiPage(doc: JsonSchema): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []) as { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
      const body = (op.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined)?.content[
        'application/json'
      ]?.schema;
      const rows = params
        .map(
          (p) =>
            `<tr><td><code>${html(p.name)}</code></td><td>${html(p.in)}</td><td>${p.required ? 'required' : ''}</td><td>${html(typeOf(p.schema))}</td></tr>`,
        )
        .join('');
      const tag = ((op.tags as string[] | undefined) ?? ['other'])[0];
      const section =
        `<section><h3><span class="m">${html(method.toUpperCase())}</span> <code>${html(path)}</code></h3>` +
        `<p>${html(op.summary ?? op['x-watchdeck-access'] ?? '')}${op.description ? ` — ${html(op.description)}` : ''}</p>` +
        (rows ? `<table><tr><th>parameter</th><th>in</th><th></th><th>type</th></tr>${rows}</table>` : '') +
        (body
          ? `<details><summary>JSON body</summary><pre>${html(JSON.stringify(body, null, 2))}</pre></details>`
          : '') +
        '</section>';
      byTag.set(tag, [...(byTag.get(tag) ?? []), section]);
    }
  }
  const info = doc.info as { title: string; version: string };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(info.title)} API</title>
<style>body{font:14px/1.4 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
section{border-top:1px solid #ddd;padding:.5rem 0}h3{margin:.2rem 0;font-size:1rem}.m{display:inline-block;min-width:4rem;font-weight:600}
table{border-collapse:collapse}td,th{padding:.1rem .6rem .1rem 0;text-align:left}pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style></head>
<body><h1>${html(info.title)} API ${html(info.version)}</h1>
<p>OpenAPI ${html(doc.openapi)} document: <a href="/api/openapi.json">/api/openapi.json</a>. Errors answer in one shape
<code>{statusCode, code, error, message, errors?}</code>; callers send a session cookie or <code>Authorization: Bearer &lt;token&gt;</code>.</p>
${[...byTag]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([tag, sections]) => `<h2>${html(tag)}</h2>${sections.join('')}`)
  .join('\n')}
</body></html>`;
}

export function openApiRoutes(app: FastifyInstance, version: string): void {
  // built at the first request: every route is registered by then
  let doc: JsonSchema | undefined;
  let page: string | undefined;
  typed(app).get('/api/openapi.json', { config: PUBLIC, schema: noReadInput }, async () => {
    doc ??= openApiDocument(app.declaredRoutes, version);
    return doc;
  });
  typed(app).get('/api/openapi', { config: PUBLIC, schema: noReadInput }, async (_req, reply) => {
    doc ??= openApiDocument(app.declaredRoutes, version);
    page ??= openApiPage(doc);
    return reply.type('text/html; charset=utf-8').send(page);
  });
}
