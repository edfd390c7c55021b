import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/index.ts';
import type { ExposedTables } from '../db/exposed.ts';
import { RestError, fromDatabaseError, tableNotFound } from './errors.ts';
import { parseQueryString } from './parse.ts';
import { interpret } from './request.ts';
import { loadSchemaCache, type SchemaCache } from './schema-cache.ts';
import { negotiate, parsePrefer, parseRange, preferenceApplied, toCsv, withoutNulls, type Format } from './respond.ts';
import { pickOverload, planRead, planWrite, planRpc, putKeyMismatch, type Plan } from './plans.ts';
import { PlanCache } from './plan-cache.ts';
import {
  DEFAULT_REST_LIMITS,
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  statementTimeout,
  tooLarge,
  type RestLimits,
} from './limits.ts';
import { isStatementTimeout } from '../db/errors.ts';
import { WritePipeline, type WriteRegistration } from './write-pipeline.ts';

type Authorize = (req: FastifyRequest, table: string, access: 'read' | 'write') => void | Promise<void>;
export type { WriteRegistration } from './write-pipeline.ts';

export interface RestOptions {
  db: Db;
  exposed: ExposedTables;
  rowCap: number;
  /** RBAC hook: called for every relation a request touches before any SQL runs; throws to deny */
  authorize?: Authorize;
  /** the areas' checks and after-commit effects of writes, per table (write-pipeline.ts) */
  writes?: readonly WriteRegistration[];
  /** encrypts values of an exposed table's `secrets` columns on write */
  encryptSecret?: (plain: string) => string;
  /** receives a function that re-reads the schema (after DDL at run time, e.g. in tests) */
  onSchemaReload?: (reload: () => Promise<void>) => void;
  /**
   * The person a request acts as. Every transaction the engine opens (writes, RPC) starts with
   * set_config('request.person_id', <id>, true) so triggers can record the actor (the incident
   * changelog, created_by defaults: incidents/sql/50-incidents.sql, auth/sql/10-caller.sql).
   */
  actor?: (req: FastifyRequest) => string | null | undefined;
  /**
   * The roles the actor acts with, set alongside it as 'request.roles' (comma-separated) for
   * triggers that decide by role (only a comment's author or an admin edits it: 0180).
   */
  actorRoles?: (req: FastifyRequest) => readonly string[] | null | undefined;
  /** embeds, embed depth, answer size and the statement timeout quoted in errors (limits.ts) */
  limits?: Partial<RestLimits>;
  /**
   * Told which exposed table (or `rpc/<fn>`) a request reads or writes once it is planned: a
   * bounded name for metrics, never a raw URL. Requests refused before (unknown table) are not.
   */
  onPlanned?: (req: FastifyRequest, table: string, access: 'read' | 'write') => void;
}

/**
 * /api/db/<table> and /api/db/rpc/<fn>: PostgREST's URL language on our database.
 * See README.md in this folder for what is supported.
 */
export const restPlugin: FastifyPluginAsync<RestOptions> = async (app, opts) => {
  let schema: SchemaCache = await loadSchemaCache(opts.db);
  // read plans by shape (plan-cache.ts); they name relations and columns, so a reload drops them
  const plans = new PlanCache();
  const writes = new WritePipeline(opts.writes);
  opts.onSchemaReload?.(async () => {
    schema = await loadSchemaCache(opts.db);
    plans.clear();
  });

  // What every request's plan context shares; built once (a closure made per request costs more
  // than it looks: tsx names every one it creates).
  const limits: RestLimits = { ...DEFAULT_REST_LIMITS, ...opts.limits };
  const staticCtx = {
    limits,
    rowCap: opts.rowCap,
    isExposed: (name: string) => !!opts.exposed[name],
    secretColumns: (name: string) => opts.exposed[name]?.secrets ?? [],
    encryptSecret: opts.encryptSecret,
  };

  // The engine parses bodies itself so a malformed one is PGRST102, not Fastify's 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  /** What planning decided: the plan, the relation it acts on and how the answer is shaped. */
  interface Planned {
    plan: Plan;
    mainTable: string;
    access: 'read' | 'write';
    format: Format;
    stripNulls: boolean;
    /** the Preference-Applied header, when any preference was applied */
    applied?: string;
    /** Prefer: tx=rollback */
    rollback: boolean;
    /** what a write sends, for the areas' checks: a table write's rows, a function's arguments */
    writeBody?: unknown;
    touched: Set<string>;
  }

  /** The parsed request -> a plan (no SQL runs here). */
  const planRequest = (req: FastifyRequest): Planned => {
    const url = req.raw.url ?? '';
    const prefixAt = url.indexOf('/api/db/');
    const q = url.indexOf('?');
    const pathPart = decodeURIComponent(url.slice(prefixAt + '/api/db/'.length, q >= 0 ? q : undefined)).replace(
      /\/+$/,
      '',
    );
    const pairs = parseQueryString(q >= 0 ? url.slice(q + 1) : '');
    const prefer = parsePrefer(req.headers.prefer);
    const { format, stripNulls } = negotiate(req.headers.accept);
    const touched = new Set<string>();
    const ctx = { ...staticCtx, schema, touched };
    const done = (plan: Plan, mainTable: string, access: 'read' | 'write', writeBody?: unknown): Planned => ({
      plan,
      mainTable,
      access,
      format,
      stripNulls,
      applied: preferenceApplied(prefer, req.method, plan.kind),
      rollback: prefer.tx === 'rollback',
      writeBody,
      touched,
    });
    // `<table>` and `rpc/<fn>` are the only paths (PostgREST's PGRST125 for anything deeper)
    const segments = pathPart.split('/');
    if (segments.length > 2 || (segments.length === 2 && segments[0] !== 'rpc'))
      throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL');

    if (pathPart.startsWith('rpc/')) {
      const fn = pathPart.slice(4);
      const mainTable = `rpc/${fn}`;
      if (!['GET', 'HEAD', 'POST'].includes(req.method))
        throw new RestError(405, 'PGRST101', 'Cannot use the ' + req.method + ' method on RPC');
      if (!opts.exposed[mainTable])
        throw new RestError(404, 'PGRST202', `Could not find the function public.${fn} in the schema cache`);
      const defs = schema.functions.get(fn);
      if (!defs) throw new RestError(404, 'PGRST202', `Could not find the function public.${fn} in the schema cache`);
      // on GET, a query pair naming an argument (of any overload) is an argument, not a filter
      const argNames = new Set(defs.flatMap((d) => d.args.map((a) => a.name)));
      const viaQuery = req.method === 'GET' || req.method === 'HEAD';
      const model = interpret(pairs, viaQuery ? argNames : new Set());
      let args: Record<string, unknown>;
      if (viaQuery) args = Object.fromEntries(model.rest);
      else args = parseBodyObject(jsonBody(req));
      const range = req.method === 'GET' ? parseRange(header(req, 'range')) : undefined;
      const plan = planRpc(ctx, pickOverload(defs, Object.keys(args)), args, model, prefer, range);
      const access =
        opts.exposed[mainTable].resource && req.method === 'POST' && !opts.exposed[mainTable].readOnly
          ? 'write'
          : 'read';
      return done(plan, mainTable, access, args);
    }

    const mainTable = pathPart;
    if (!mainTable || mainTable.includes('/') || !opts.exposed[mainTable] || !schema.relations.has(mainTable))
      throw tableNotFound(mainTable);
    if (req.method === 'GET' || req.method === 'HEAD') {
      // the Range header counts on GET only (RFC 9110, and PostgREST)
      const range = req.method === 'GET' ? parseRange(header(req, 'range')) : undefined;
      const shape = plans.shapeOf(mainTable, pairs, prefer, range, opts.rowCap);
      const cached = shape && plans.plan(shape, pairs, touched);
      if (cached) return done(cached, mainTable, 'read');
      const plan = planRead(ctx, mainTable, interpret(pairs), prefer, range);
      if (shape) plans.remember(shape, plan, touched);
      return done(plan, mainTable, 'read');
    }
    const model = interpret(pairs);
    if (req.method !== 'POST' && req.method !== 'PATCH' && req.method !== 'DELETE' && req.method !== 'PUT') {
      throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
    }
    if (opts.exposed[mainTable].readOnly)
      throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`, `'${mainTable}' is read-only`);
    const body = req.method === 'DELETE' ? undefined : parseBody(jsonBody(req));
    return done(planWrite(ctx, req.method, mainTable, model, prefer, body), mainTable, 'write', body);
  };

  /** Runs a plan (after the RBAC hook saw every relation it touches) and writes the answer. */
  const respond = async (req: FastifyRequest, reply: FastifyReply, planned: Planned) => {
    if (opts.authorize) {
      await opts.authorize(req, planned.mainTable, planned.access);
      for (const t of planned.touched) if (t !== planned.mainTable) await opts.authorize(req, t, 'read');
    }
    // a PUT writes a whole row as a POST does: the areas' checks see it as one
    const method = req.method === 'PUT' ? 'POST' : req.method;
    if (planned.access === 'write') await writes.check(planned.mainTable, method, planned.writeBody);
    const result = await run(
      opts.db,
      planned.plan,
      planned.format,
      planned.stripNulls,
      opts.actor?.(req) ?? null,
      opts.actorRoles?.(req),
      limits,
      planned.rollback,
    );
    // committed (run is one transaction, a refused write threw above), unless tx=rollback undid it
    if (planned.access === 'write' && !planned.rollback)
      await writes.afterCommit(planned.mainTable, req.method, req.log);
    reply.code(result.status);
    for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
    if (planned.applied) reply.header('Preference-Applied', planned.applied);
    if (result.body === undefined) return reply.send();
    return reply.type(result.contentType).send(req.method === 'HEAD' ? undefined : result.body);
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const planned = planRequest(req);
      opts.onPlanned?.(req, planned.mainTable, planned.access);
      return await respond(req, reply, planned);
    } catch (err) {
      const e = isStatementTimeout(err) ? statementTimeout(limits) : fromDatabaseError(err);
      if (e.status >= 500) req.log.error({ err }, 'rest engine error');
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return reply.code(e.status).type('application/json; charset=utf-8').send(e.body());
    }
  };

  // HEAD comes with GET (Fastify exposes HEAD routes for GET routes).
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'] as const) {
    app.route({ method, url: '/*', handler });
  }
};

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The raw body, when it is JSON: other media types (CSV, forms) are not supported (415). */
function jsonBody(req: FastifyRequest): unknown {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type && type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    throw new RestError(415, 'PGRST107', `Content-Type not acceptable: ${type}`);
  }
  return req.body;
}

const tooDeep = () => new RestError(400, 'PGRST102', `JSON nested more than ${MAX_JSON_DEPTH} levels deep`);

function parseBody(raw: unknown): Record<string, unknown> | Record<string, unknown>[] {
  if (typeof raw !== 'string' || raw.trim() === '') throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  if (nestedDeeperThan(raw)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  }
  if (Array.isArray(value)) {
    if (!value.every((v) => v && typeof v === 'object' && !Array.isArray(v)))
      throw new RestError(400, 'PGRST102', 'All array elements must be objects');
    return value as Record<string, unknown>[];
  }
  if (value && typeof value === 'object') return value as Record<string, unknown>;
  throw new RestError(400, 'PGRST102', 'Empty or invalid json');
}

function parseBodyObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  const v = parseBody(raw);
  if (Array.isArray(v)) throw new RestError(400, 'PGRST102', 'Function arguments must be a JSON object');
  return v;
}

interface Result {
  status: number;
  headers: Record<string, string>;
  body?: string;
  contentType: string;
}

/**
 * Runs a plan in one transaction; singular and range checks roll back writes that break them.
 * A read is one statement (rows and count together, always one row), so it skips BEGIN/COMMIT:
 * two round trips fewer on the path every list screen takes, and reads of one shape that wait
 * for a connection together are sent together (db/read-batch.ts).
 */
async function run(
  db: Db,
  plan: Plan,
  format: Format,
  stripNulls: boolean,
  actor: string | null,
  roles: readonly string[] | null | undefined,
  limits: RestLimits,
  rollback = false,
): Promise<Result> {
  if (plan.kind === 'read' && plan.statements.length === 1) {
    const { sql, params } = plan.statements[0];
    const row = await db.readRow<Row>(sql, params);
    // the statement left the body out: PostgreSQL measured it over the limit (plans.ts planRead)
    if (
      row.body === null &&
      row.bytes !== null &&
      row.bytes !== undefined &&
      Number(row.bytes) > limits.maxResponseBytes
    )
      throw tooLarge(Number(row.bytes), limits);
    return answer(plan, [row], format, stripNulls);
  }
  const work = db.transaction(async (tx: Queryable) => {
    // transaction-local (is_local = true): gone at COMMIT/ROLLBACK, never leaks to a pooled connection
    if (actor)
      await tx.query(`SELECT set_config('request.person_id', $1, true), set_config('request.roles', $2, true)`, [
        actor,
        (roles ?? []).join(','),
      ]);
    let rows: Row[] = [];
    let bytes = 0;
    for (const stmt of plan.statements) {
      const r = await tx.query<Row>(stmt.sql, stmt.params);
      // a write's representation or a function's answer: measured here (a write's statement
      // cannot be wrapped); over the limit, the write is rolled back with the refusal
      for (const row of r.rows) bytes += row.body ? Buffer.byteLength(row.body) : 0;
      if (bytes > limits.maxResponseBytes) throw tooLarge(bytes, limits);
      rows = rows.concat(r.rows);
    }
    const result = answer(plan, rows, format, stripNulls);
    // Prefer: tx=rollback: the answer stands, the transaction is undone (throwing rolls it back)
    if (rollback) throw new RolledBack(result);
    return result;
  });
  return work.catch((err: unknown) => {
    if (err instanceof RolledBack) return err.result;
    throw err;
  });
}

/** Carries a tx=rollback request's answer out of the transaction it rolls back. */
class RolledBack {
  constructor(readonly result: Result) {}
}

/** The HTTP answer to a plan's rows (inside the transaction: a 406 rolls a write back). */
function answer(plan: Plan, rows: Row[], format: Format, stripNulls: boolean): Result {
  // A read's JSON array goes out as PostgreSQL wrote it: parsing and re-encoding it here would
  // cost more than the rest of the request for a page of rows. Only CSV and nulls=stripped
  // need the values.
  if (plan.kind === 'read' && rows.length === 1 && typeof rows[0].n === 'number' && format !== 'csv' && !stripNulls) {
    return readAnswer(plan, rows[0], format);
  }
  // plans are one statement today; several would concatenate their arrays
  const items: unknown[] = [];
  let scalar: string | undefined;
  let total: number | null = null;
  let affected = 0;
  let inserted = 0;
  for (const r of rows) {
    if (r.total !== null && r.total !== undefined) total = Number(r.total);
    if (r.affected !== null && r.affected !== undefined) affected += Number(r.affected);
    if (r.inserted !== null && r.inserted !== undefined) inserted += Number(r.inserted);
    if (r.body === null || r.body === undefined) continue;
    if (plan.scalar) scalar = r.body;
    else items.push(...(JSON.parse(r.body) as unknown[]));
  }
  const headers: Record<string, string> = {};
  if (plan.kind === 'rpc' && plan.scalar) {
    return { status: 200, headers, body: scalar ?? 'null', contentType: 'application/json; charset=utf-8' };
  }
  const asObject = format === 'object' || !!plan.singleObject;
  if (format === 'object') {
    const n = plan.kind === 'write' && !plan.returnRows ? affected : items.length;
    if (n !== 1) throw notOneRow(n);
  }
  if (plan.kind === 'write') {
    // PUT writes its one row only when the body's key is the URL's
    if (plan.singleUpsert && affected !== 1) throw putKeyMismatch();
    if (plan.location && items.length === 1) headers['Location'] = plan.location(items[0] as Record<string, unknown>);
    // PostgREST's Content-Range for writes: a PATCH gives the rows it changed, POST and DELETE
    // only the total (`*/*`, or `*/n` with Prefer: count), PUT none
    const writeTotal = plan.countRows ? String(affected) : '*';
    if (plan.method === 'PATCH')
      headers['Content-Range'] = affected ? `0-${affected - 1}/${writeTotal}` : `*/${writeTotal}`;
    else if (plan.method !== 'PUT') headers['Content-Range'] = `*/${writeTotal}`;
    // an insert is 201, unless it only merged rows that already existed (or PUT updated its row)
    const created = plan.method === 'PUT' || plan.merges ? inserted > 0 : true;
    const status = plan.method === 'POST' || plan.method === 'PUT' ? (created ? 201 : 200) : 200;
    if (!plan.returnRows)
      return { status: plan.method === 'POST' ? status : 204, headers, contentType: 'application/json' };
    return {
      status,
      headers,
      body: render(items, asObject ? 'object' : format, stripNulls),
      contentType: contentType(format),
    };
  }
  // reads
  const range = readRange(plan.offset ?? 0, items.length, total);
  return {
    ...range,
    body: render(items, asObject ? 'object' : format, stripNulls),
    contentType: contentType(asObject && format === 'json' ? 'json' : format),
  };
}

interface Row {
  body: string | null;
  /** reads: the body's size in bytes, measured by PostgreSQL (body is null when over the limit) */
  bytes?: number | null;
  total: number | null;
  affected: number | null;
  /** writes that insert: how many of the affected rows are new */
  inserted?: number | null;
  /** reads: the number of rows in body */
  n?: number;
}

/**
 * Content-Range and status for a read of `count` rows from `offset`, as PostgREST's
 * rangeStatusHeader: 416 when the offset is past a counted total, 206 when the page holds fewer
 * rows than the total.
 */
function readRange(
  offset: number,
  count: number,
  total: number | null,
): { status: number; headers: Record<string, string> } {
  if (total !== null && offset > total) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
      null,
      {
        'Content-Range': `*/${total}`,
      },
    );
  }
  const range = count && total !== 0 ? `${offset}-${offset + count - 1}` : '*';
  const headers = { 'Content-Range': `${range}/${total ?? '*'}` };
  return { status: total !== null && count < total ? 206 : 200, headers };
}

/** 406 for Accept: vnd.pgrst.object+json when the answer is not exactly one row. */
function notOneRow(n: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'JSON object requested, multiple (or no) rows returned',
    `The result contains ${n} rows`,
  );
}

/** A read answered with PostgreSQL's own JSON text (json_agg of the rows). */
function readAnswer(plan: Plan, row: Row, format: Format): Result {
  const n = row.n!;
  const total = row.total === null || row.total === undefined ? null : Number(row.total);
  const body = row.body ?? '[]';
  if (format === 'object') {
    if (n !== 1) throw notOneRow(n);
    // json_agg of one row is exactly `[` + the row + `]`
    const { status, headers } = readRange(plan.offset ?? 0, n, total);
    return { status, headers, body: body.slice(1, -1), contentType: contentType('object') };
  }
  const { status, headers } = readRange(plan.offset ?? 0, n, total);
  return { status, headers, body, contentType: contentType('json') };
}

function render(items: unknown[], format: Format, stripNulls: boolean): string {
  if (format === 'csv') return toCsv(items as Record<string, unknown>[]);
  const value = format === 'object' ? (items[0] ?? null) : items;
  return (stripNulls ? JSON.stringify(value, withoutNulls) : JSON.stringify(value)) ?? 'null';
}

function contentType(format: Format): string {
  if (format === 'csv') return 'text/csv; charset=utf-8';
  if (format === 'object') return 'application/vnd.pgrst.object+json; charset=utf-8';
  return 'application/json; charset=utf-8';
}
