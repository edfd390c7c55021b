import { RestError, parseError } from './errors.ts';
import type { RequestModel } from './request.ts';
import type { SelectItem } from './parse.ts';
import type { FunctionDef, Relation, SchemaCache } from './schema-cache.ts';
import { Builder, SECRET_MASK, quoteIdent, type ParamSource } from './sql.ts';
import type { Prefer } from './respond.ts';
import { checkSelectLimits, DEFAULT_REST_LIMITS, type RestLimits } from './limits.ts';

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** Statements to run in one transaction, and how to shape their answer. */
export interface Plan {
  kind: 'read' | 'write' | 'rpc';
  method?: WriteMethod;
  /** sources: where each parameter came from (reads only; see plan-cache.ts) */
  statements: { sql: string; params: unknown[]; sources?: (ParamSource | undefined)[] }[];
  offset?: number;
  returnRows?: boolean;
  /** a write with Prefer: count=... reports the affected rows as the total of Content-Range */
  countRows?: boolean;
  scalar?: boolean;
  singleObject?: boolean;
  /** POST: an upsert that merges (200 instead of 201 when every row already existed) */
  merges?: boolean;
  /** PUT: exactly one row is written, or the body's key did not match the URL's (PGRST115) */
  singleUpsert?: boolean;
  location?: (row: Record<string, unknown>) => string;
}

export interface PlanContext {
  schema: SchemaCache;
  touched: Set<string>;
  rowCap: number;
  isExposed(name: string): boolean;
  secretColumns(name: string): string[];
  encryptSecret?: (plain: string) => string;
  /** embeds, depth and answer size (limits.ts); the defaults when absent */
  limits?: RestLimits;
}

function builderFor(ctx: PlanContext) {
  return new Builder({
    schema: ctx.schema,
    isExposed: ctx.isExposed,
    secretColumns: ctx.secretColumns,
    touched: ctx.touched,
    rowCap: ctx.rowCap,
  });
}

/**
 * `rel.col=...`, `rel.order=...` and the like must name an embed of the select (PGRST108):
 * silently ignoring them would return unfiltered embedded rows.
 */
function checkEmbedPaths(model: RequestModel) {
  const paths = new Set<string>();
  const collect = (items: SelectItem[], prefix: string) => {
    for (const item of items) {
      if (item.kind !== 'embed') continue;
      const path = prefix ? `${prefix}.${item.alias ?? item.relation}` : (item.alias ?? item.relation);
      paths.add(path);
      collect(item.select, path);
    }
  };
  collect(model.select, '');
  for (const map of [model.filters, model.order, model.limit, model.offset]) {
    for (const key of map.keys()) {
      if (key !== '' && !paths.has(key)) {
        throw new RestError(
          400,
          'PGRST108',
          `'${key}' is not an embedded resource in this request`,
          null,
          `Verify that '${key}' is included in the 'select' query parameter.`,
        );
      }
    }
  }
}

/** SELECT ... FROM <from> AS t0 WHERE ... ORDER ... LIMIT/OFFSET, as a JSON array body + total. */
function selectBody(
  b: Builder,
  rel: Relation,
  from: string,
  model: RequestModel,
  opts: { count: boolean; limit?: number; offset?: number; extraWhere?: string[] },
) {
  checkEmbedPaths(model);
  const where: string[] = [...(opts.extraWhere ?? [])];
  // the embeds first: they add their !inner conditions, and filters may test them (`rel=is.null`)
  const proj = b.projection(rel, 't0', model.select, model, '', where);
  for (const f of model.filters.get('') ?? []) where.push(b.filterSql(rel, 't0', f));
  const whereSql = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  const order = b.orderSql(rel, 't0', model.order.get('') ?? []);
  const limit = opts.limit !== undefined ? ` LIMIT ${b.params.add(opts.limit, { root: 'limit' })}::bigint` : '';
  const offset = opts.offset ? ` OFFSET ${b.params.add(opts.offset, { root: 'offset' })}::bigint` : '';
  const rows = `SELECT ${proj} FROM ${from} AS t0${whereSql}${order}${limit}${offset}`;
  const body = `SELECT coalesce(json_agg(_r), '[]'::json)::text FROM (${rows}) _r`;
  const total = opts.count ? `(SELECT count(*) FROM ${from} AS t0${whereSql})` : 'NULL::bigint';
  return { rows, body, total };
}

/**
 * The root page of a read, as PostgREST computes it: `offset`/`limit` make a range of rows, the
 * Range header (GET only) another, and the page is their intersection, within the row cap. An
 * empty intersection is 416 PGRST103; `limit=0` is an empty page, not an error.
 */
export function rootPage(
  limit: number | undefined,
  offset: number | undefined,
  range: { offset: number; limit?: number } | undefined,
  rowCap: number,
) {
  const from = offset ?? 0;
  if (limit === 0) return { limit: 0, offset: from };
  let lower = from;
  let upper = limit === undefined ? Infinity : from + limit - 1;
  let headerEmpty = false;
  if (range) {
    const headerUpper = range.limit === undefined ? Infinity : range.offset + range.limit - 1;
    headerEmpty = headerUpper < range.offset;
    lower = Math.max(lower, range.offset);
    upper = Math.min(upper, headerUpper);
  }
  if (upper < lower) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      headerEmpty
        ? 'The lower boundary must be lower than or equal to the upper boundary in the Range header.'
        : 'Limit should be greater than or equal to zero.',
    );
  }
  return { limit: Math.min(upper - lower + 1, rowCap), offset: lower };
}

/**
 * A read is one statement: the JSON array as text (sent as it is, see index.ts), its number of
 * rows and, with Prefer: count, the total.
 */
export function planRead(
  ctx: PlanContext,
  table: string,
  model: RequestModel,
  prefer: Prefer,
  range?: { offset: number; limit?: number },
): Plan {
  const limits = ctx.limits ?? DEFAULT_REST_LIMITS;
  checkSelectLimits(model.select, limits);
  const b = builderFor(ctx);
  const rel = b.relation(table);
  const { limit, offset } = rootPage(model.limit.get(''), model.offset.get(''), range, ctx.rowCap);
  const { rows, total } = selectBody(b, rel, quoteIdent(rel.name), model, { count: !!prefer.count, limit, offset });
  // PostgreSQL measures the answer and sends it only when it is within the limit: a refused
  // answer never reaches (and never stays in) the server's memory. The limit is a trusted integer.
  const max = Math.floor(limits.maxResponseBytes);
  const sql =
    `SELECT CASE WHEN octet_length(_b.body) <= ${max} THEN _b.body END AS body, octet_length(_b.body) AS bytes, _b.n, ${total} AS total, NULL::bigint AS affected` +
    ` FROM (SELECT coalesce(json_agg(_r), '[]'::json)::text AS body, count(*) AS n FROM (${rows}) _r) _b`;
  return { kind: 'read', statements: [{ sql, params: b.params.values, sources: b.params.sources }], offset };
}

export function planWrite(
  ctx: PlanContext,
  method: WriteMethod,
  table: string,
  model: RequestModel,
  prefer: Prefer,
  body?: Record<string, unknown> | Record<string, unknown>[],
): Plan {
  checkSelectLimits(model.select, ctx.limits ?? DEFAULT_REST_LIMITS);
  const b0 = builderFor(ctx);
  const rel = b0.relation(table);
  const returnRows = prefer.return === 'representation';
  const countRows = !!prefer.count;
  const secrets = new Set(ctx.secretColumns(table));
  const prepare = (row: Record<string, unknown>) => {
    if (!secrets.size) return row;
    const out = { ...row };
    for (const k of Object.keys(out)) {
      if (!secrets.has(k)) continue;
      // A form sends back what it read: the mask means "unchanged", never a new secret.
      if (out[k] === SECRET_MASK) delete out[k];
      else if (typeof out[k] === 'string' && out[k] !== '' && ctx.encryptSecret)
        out[k] = ctx.encryptSecret(out[k] as string);
    }
    return out;
  };
  const statements: Plan['statements'] = [];
  const headersOnly = prefer.return === 'headers-only' && rel.primaryKey.length > 0;
  /**
   * One statement per request: the written rows (`_w`, from one or several data-modifying CTEs)
   * feed the representation, so select, embeds and order apply to all of them at once.
   */
  const finish = (b: Builder, ctes: string | string[]) => {
    const list = Array.isArray(ctes) ? ctes : [ctes];
    const withSql =
      list.length === 1
        ? `_w AS (${list[0]})`
        : `${list.map((c, i) => `_w${i + 1} AS (${c})`).join(', ')}, _w AS (${list.map((_, i) => `SELECT * FROM _w${i + 1}`).join(' UNION ALL ')})`;
    let bodySql = 'NULL::text';
    if (returnRows) {
      // the root filters chose the rows written; embed filters still shape the representation
      const embedFilters = new Map([...model.filters].filter(([path]) => path !== ''));
      bodySql = `(${selectBody(b, rel, '_w', { ...model, filters: embedFilters }, { count: false }).body})`;
    } else {
      checkEmbedPaths(model);
      // return=headers-only: just the primary key, for the Location header
      if (headersOnly)
        bodySql = `(SELECT coalesce(json_agg(_l), '[]'::json)::text FROM (SELECT ${rel.primaryKey.map(quoteIdent).join(', ')} FROM _w) _l)`;
    }
    // inserts say which rows were new (xmax = 0): an upsert that only merged answers 200
    const inserted =
      method === 'POST' || method === 'PUT' ? '(SELECT count(*) FROM _w WHERE _w._inserted)' : 'NULL::bigint';
    statements.push({
      sql: `WITH ${withSql} SELECT ${bodySql} AS body, NULL::bigint AS total, (SELECT count(*) FROM _w) AS affected, ${inserted} AS inserted`,
      params: b.params.values,
    });
  };
  const checkColumns = (cols: string[]) => {
    for (const c of cols) {
      if (!rel.columns.has(c))
        throw new RestError(400, 'PGRST204', `Could not find the '${c}' column of '${table}' in the schema cache`);
    }
  };
  const filtersSql = (b: Builder) => (model.filters.get('') ?? []).map((f) => b.filterSql(rel, 't0', f));

  if (method === 'PUT')
    return planPut(ctx, rel, model, prepare(Array.isArray(body) ? (body[0] ?? {}) : (body ?? {})), finish, statements, {
      returnRows,
      countRows,
    });

  if (method === 'POST') {
    const rows = (Array.isArray(body) ? body : [body!]).map(prepare);
    if (rows.length === 0) return { kind: 'write', method, statements: [], returnRows, countRows };
    // without columns=, every object of an array names the same keys (PostgREST's rule)
    if (!model.columns && Array.isArray(body) && body.length > 1) {
      const keys = (o: Record<string, unknown>) => Object.keys(o).sort().join('\u0000');
      const first = keys(body[0]);
      if (body.some((o) => keys(o) !== first)) throw new RestError(400, 'PGRST102', 'All object keys must match');
    }
    // Rows are grouped by their key set when missing=default, so absent keys take the column
    // default (an upsert leaves them as they are); otherwise every row gets every key
    // (absent -> NULL), as PostgREST does.
    const groups = new Map<string, { cols: string[]; rows: Record<string, unknown>[] }>();
    const union = model.columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
    checkColumns(union);
    for (const r of rows) {
      const cols = prefer.missing === 'default' ? union.filter((c) => c in r) : union;
      const key = cols.join(',');
      if (!groups.has(key)) groups.set(key, { cols, rows: [] });
      groups.get(key)!.rows.push(r);
    }
    let conflictCols: string[] | undefined;
    if (prefer.resolution) {
      conflictCols = model.onConflict ?? rel.primaryKey;
      if (!conflictCols.length)
        throw parseError(`'${table}' has no primary key: name the conflict columns with on_conflict`);
      checkColumns(conflictCols);
    } else if (model.onConflict) checkColumns(model.onConflict);
    const b = builderFor(ctx);
    b.relation(table);
    const ctes: string[] = [];
    for (const g of groups.values()) {
      const cols = g.cols.map(quoteIdent).join(', ');
      // rows without any key: all defaults (a zero-column SELECT inserts defaults only)
      const insert = g.cols.length
        ? `INSERT INTO ${quoteIdent(table)} AS t0 (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${quoteIdent(table)}, ${b.params.add(JSON.stringify(g.rows))}::json)`
        : `INSERT INTO ${quoteIdent(table)} AS t0 SELECT FROM generate_series(1, ${b.params.add(g.rows.length)}::int)`;
      let conflict = '';
      if (prefer.resolution === 'ignore-duplicates')
        conflict = ` ON CONFLICT (${conflictCols!.map(quoteIdent).join(', ')}) DO NOTHING`;
      if (prefer.resolution === 'merge-duplicates') {
        const set = g.cols.filter((c) => !conflictCols!.includes(c));
        conflict =
          ` ON CONFLICT (${conflictCols!.map(quoteIdent).join(', ')}) ` +
          (set.length
            ? `DO UPDATE SET ${set.map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`).join(', ')}`
            : 'DO NOTHING');
      }
      ctes.push(`${insert}${conflict} RETURNING t0.*, (t0.xmax = 0) AS _inserted`);
    }
    finish(b, ctes);
    const pk = rel.primaryKey;
    return {
      kind: 'write',
      method,
      statements,
      returnRows,
      countRows,
      merges: prefer.resolution === 'merge-duplicates',
      location: headersOnly
        ? (row) => `/${table}?${pk.map((k) => `${k}=eq.${encodeURIComponent(String(row[k]))}`).join('&')}`
        : undefined,
    };
  }

  const b = builderFor(ctx);
  b.relation(table);
  const where = filtersSql(b);
  let whereSql = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  if (model.limit.has('') || model.offset.has('')) {
    // A limited PATCH/DELETE (PostgREST's rule): the rows are picked in a stable order, else a
    // retry could touch different rows (PGRST109). Row ids pick them; views are read-only here.
    const order = model.order.get('') ?? [];
    if (!order.length) {
      throw new RestError(
        400,
        'PGRST109',
        'A PATCH or DELETE with a limit or offset must be ordered',
        null,
        "Add an 'order' on a unique column.",
      );
    }
    const limit = model.limit.has('') ? ` LIMIT ${b.params.add(model.limit.get(''))}::bigint` : '';
    const offset = model.offset.has('') ? ` OFFSET ${b.params.add(model.offset.get(''))}::bigint` : '';
    whereSql = ` WHERE t0.ctid = ANY(ARRAY(SELECT t0.ctid FROM ${quoteIdent(table)} AS t0${whereSql}${b.orderSql(rel, 't0', order)}${limit}${offset}))`;
  }
  if (method === 'PATCH') {
    // `{}`, `[]` and `[{}]` change nothing: no statement, no rows (204, or `[]`)
    const nothing = Array.isArray(body) && (body.length === 0 || (body.length === 1 && !Object.keys(body[0]).length));
    const only = nothing ? {} : Array.isArray(body) ? undefined : body;
    if (!only) throw new RestError(400, 'PGRST102', 'PATCH expects a single JSON object');
    if (!Object.keys(only).length) {
      checkEmbedPaths(model);
      return { kind: 'write', method, statements: [], returnRows, countRows };
    }
    body = only;
    const row = prepare(body ?? {});
    const cols = (model.columns ?? Object.keys(row)).filter((c) => c in row || !secrets.has(c));
    checkColumns(cols);
    if (!cols.length) {
      // only masked secrets were sent: nothing changes, the matching rows are the answer
      finish(b, `SELECT t0.* FROM ${quoteIdent(table)} AS t0${whereSql}`);
      return { kind: 'write', method, statements, returnRows, countRows };
    }
    const list = cols.map(quoteIdent).join(', ');
    const set =
      cols.length === 1
        ? `${list} = (SELECT ${list} FROM json_populate_record(NULL::${quoteIdent(table)}, ${b.params.add(JSON.stringify(row))}::json))`
        : `(${list}) = (SELECT ${list} FROM json_populate_record(NULL::${quoteIdent(table)}, ${b.params.add(JSON.stringify(row))}::json))`;
    finish(b, `UPDATE ${quoteIdent(table)} AS t0 SET ${set}${whereSql} RETURNING t0.*`);
  } else {
    finish(b, `DELETE FROM ${quoteIdent(table)} AS t0${whereSql} RETURNING t0.*`);
  }
  return { kind: 'write', method, statements, returnRows, countRows };
}

export const putKeyMismatch = () =>
  new RestError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)');

/**
 * PUT: a single-row upsert by primary key, as PostgREST does it. The filters are exactly the
 * primary key's columns, each with `eq` (else 405 PGRST105); no limit/offset (400 PGRST114); the
 * body's key values are the URL's (else 400 PGRST115, found by the statement: the row is only
 * written when they match, compared as the column's type). An array body puts its first object.
 */
function planPut(
  ctx: PlanContext,
  rel: Relation,
  model: RequestModel,
  row: Record<string, unknown>,
  finish: (b: Builder, ctes: string) => void,
  statements: Plan['statements'],
  flags: { returnRows: boolean; countRows: boolean },
): Plan {
  if (model.limit.has('') || model.offset.has('')) {
    throw new RestError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT');
  }
  const pk = rel.primaryKey;
  const values = new Map<string, string>();
  for (const f of model.filters.get('') ?? []) {
    const plain = f.kind === 'cond' && !f.negate && f.op === 'eq' && !f.modifier && !f.field.path.length;
    if (!plain || !pk.includes(f.field.column) || values.has(f.field.column)) {
      values.clear();
      break;
    }
    values.set(f.field.column, f.value);
  }
  if (!pk.length || values.size !== pk.length) {
    throw new RestError(405, 'PGRST105', "Filters must include all and only primary key columns with 'eq' operators");
  }
  const cols = Object.keys(row);
  if (pk.some((k) => !(k in row))) throw putKeyMismatch();
  for (const c of cols) {
    if (!rel.columns.has(c))
      throw new RestError(400, 'PGRST204', `Could not find the '${c}' column of '${rel.name}' in the schema cache`);
  }
  const b = builderFor(ctx);
  b.relation(rel.name);
  const table = quoteIdent(rel.name);
  const list = cols.map(quoteIdent).join(', ');
  const source = `json_populate_record(NULL::${table}, ${b.params.add(JSON.stringify(row))}::json) AS _p`;
  const match = pk
    .map((k) => `_p.${quoteIdent(k)} = ${b.params.add(values.get(k))}::${rel.columns.get(k)!.type}`)
    .join(' AND ');
  // with only key columns there is nothing to change, but the row must still come back
  const set = (cols.some((c) => !pk.includes(c)) ? cols.filter((c) => !pk.includes(c)) : pk)
    .map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`)
    .join(', ');
  finish(
    b,
    `INSERT INTO ${table} AS t0 (${list}) SELECT ${list} FROM ${source} WHERE ${match}` +
      ` ON CONFLICT (${pk.map(quoteIdent).join(', ')}) DO UPDATE SET ${set} RETURNING t0.*, (t0.xmax = 0) AS _inserted`,
  );
  return { kind: 'write', method: 'PUT', statements, ...flags, singleUpsert: true };
}

/**
 * The definition an RPC call means, chosen by argument names as PostgREST does: every given
 * argument is one of its parameters and every parameter without a default is given. When that
 * leaves several overloads, the one needing no defaults wins; otherwise it is ambiguous (PGRST203).
 */
export function pickOverload(defs: FunctionDef[], given: string[]): FunctionDef {
  if (defs.length === 1) return defs[0]; // planRpc explains what does not fit
  const fits = defs.filter(
    (d) =>
      given.every((g) => d.args.some((a) => a.name === g)) &&
      d.args.every((a) => a.hasDefault || given.includes(a.name)),
  );
  const exact = fits.filter((d) => d.args.length === given.length);
  if (fits.length === 1) return fits[0];
  if (exact.length === 1) return exact[0];
  const name = defs[0].name;
  if (!fits.length)
    throw new RestError(
      404,
      'PGRST202',
      `Could not find the function public.${name}(${given.join(', ')}) in the schema cache`,
    );
  throw new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${fits.map((d) => `public.${name}(${d.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

export function planRpc(
  ctx: PlanContext,
  fn: FunctionDef,
  args: Record<string, unknown>,
  model: RequestModel,
  prefer: Prefer,
  range?: { offset: number; limit?: number },
): Plan {
  checkSelectLimits(model.select, ctx.limits ?? DEFAULT_REST_LIMITS);
  const b = builderFor(ctx);
  const known = new Map(fn.args.map((a) => [a.name, a]));
  for (const name of Object.keys(args)) {
    if (!known.has(name)) {
      throw new RestError(
        404,
        'PGRST202',
        `Could not find the function public.${fn.name}(${Object.keys(args).join(', ')}) in the schema cache`,
      );
    }
  }
  for (const a of fn.args) {
    if (!(a.name in args) && !a.hasDefault)
      throw new RestError(
        404,
        'PGRST202',
        `Could not find the function public.${fn.name} without its argument ${a.name}`,
      );
  }
  const argSql = (v: unknown, type: string) => {
    // A JSON array for an array parameter (postgrest-js sends [1,2]): its elements, cast.
    if (Array.isArray(v) && type.endsWith('[]'))
      return `ARRAY(SELECT json_array_elements_text(${b.params.add(JSON.stringify(v))}::json))::${type}`;
    return `${b.params.add(typeof v === 'object' && v !== null ? JSON.stringify(v) : v)}::${type}`;
  };
  const call = `${quoteIdent(fn.name)}(${Object.entries(args)
    .map(([k, v]) => `${quoteIdent(k)} => ${argSql(v, known.get(k)!.type)}`)
    .join(', ')})`;
  if (fn.returnsRelation && ctx.schema.relations.has(fn.returnsRelation)) {
    const rel = ctx.schema.relations.get(fn.returnsRelation)!;
    const { limit, offset } = rootPage(model.limit.get(''), model.offset.get(''), range, ctx.rowCap);
    const { body, total } = selectBody(b, rel, '_f', model, { count: !!prefer.count, limit, offset });
    // the function runs once (a volatile one must not run again for the count)
    return {
      kind: 'rpc',
      offset,
      singleObject: !fn.returnsSet,
      statements: [
        {
          sql: `WITH _f AS MATERIALIZED (SELECT * FROM ${call}) SELECT (${body}) AS body, ${total} AS total, NULL::bigint AS affected`,
          params: b.params.values,
        },
      ],
    };
  }
  if (fn.returnsSet) {
    return {
      kind: 'rpc',
      statements: [
        {
          sql: `SELECT coalesce(json_agg(_v), '[]'::json)::text AS body, NULL::bigint AS total, NULL::bigint AS affected FROM ${call} AS _v`,
          params: b.params.values,
        },
      ],
    };
  }
  return {
    kind: 'rpc',
    scalar: true,
    statements: [
      {
        sql: `SELECT to_json(${call})::text AS body, NULL::bigint AS total, NULL::bigint AS affected`,
        params: b.params.values,
      },
    ],
  };
}
