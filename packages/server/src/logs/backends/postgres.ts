/**
 * The PostgreSQL-table backend: rows of `table` (or of `query`, a SELECT) through a connection,
 * newest first. The time range, the text (ILIKE on the message, escaped) and the paging are bound
 * parameters around the source; column names are quoted identifiers checked against a pattern.
 * The session is read-only with a statement timeout, as the catalog's sql scraper reads: a log
 * search observes, it never writes. A connection that fails is a LogBackendError (502).
 */
import pg from 'pg';
import { LogBackendError, reason } from '../errors.ts';
import { decodePage, encodePage, type BackendAnswer, type BackendQuery } from './types.ts';

export interface PostgresSpec {
  connection: string;
  table?: string;
  query?: string;
  columns?: { timestamp?: string; message?: string; labels?: string | string[] };
}

export interface PostgresTarget {
  url: string;
  username?: string;
  password?: string;
}

const TIMEOUT_MS = 15_000;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const quoteIdent = (name: string, what: string) => {
  if (!IDENT.test(name)) throw new LogBackendError(`${what} ${name} is not a column name`);
  return `"${name}"`;
};

type Token = { o: number };
const isToken = (v: unknown): v is Token =>
  !!v && typeof v === 'object' && Number.isInteger((v as Token).o) && (v as Token).o >= 0 && (v as Token).o <= 1e7;

export async function searchPostgres(
  spec: PostgresSpec,
  target: PostgresTarget,
  q: BackendQuery,
): Promise<BackendAnswer> {
  const token = decodePage(q.page, isToken);
  const ts = quoteIdent(spec.columns?.timestamp ?? 'timestamp', 'columns.timestamp');
  const msg = quoteIdent(spec.columns?.message ?? 'message', 'columns.message');
  const labelCols = spec.columns?.labels;
  const labelsSql =
    labelCols === undefined
      ? `'{}'::jsonb`
      : typeof labelCols === 'string'
        ? `coalesce(to_jsonb(src.${quoteIdent(labelCols, 'columns.labels')}), '{}'::jsonb)`
        : `jsonb_strip_nulls(jsonb_build_object(${labelCols
            .map(
              (c) => `'${quoteIdent(c, 'columns.labels').slice(1, -1)}', src.${quoteIdent(c, 'columns.labels')}::text`,
            )
            .join(', ')}))`;
  const source = spec.table
    ? spec.table
        .split('.')
        .map((p) => quoteIdent(p, 'table'))
        .join('.')
    : `(${spec.query!.replace(/;\s*$/, '')})`;
  const where = [`src.${ts} >= $1`, `src.${ts} <= $2`];
  const params: unknown[] = [new Date(q.startMs), new Date(q.endMs)];
  if (q.text?.trim()) {
    params.push(`%${q.text.trim().replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`src.${msg}::text ILIKE $${params.length}`);
  }
  for (const [k, v] of Object.entries(q.labels ?? {})) {
    params.push(k, v);
    where.push(`(${labelsSql}) ->> $${params.length - 1} = $${params.length}`);
  }
  const from = `FROM ${source} AS src WHERE ${where.join(' AND ')}`;
  const offset = token?.o ?? 0;

  const url = new URL(target.url);
  if (target.username) url.username = encodeURIComponent(target.username);
  if (target.password) url.password = encodeURIComponent(target.password);
  const client = new pg.Client({
    connectionString: url.toString(),
    statement_timeout: TIMEOUT_MS,
    connectionTimeoutMillis: 10_000,
  });
  // a server that drops the connection emits 'error' besides failing the query
  client.on('error', () => {});
  const shown = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  try {
    try {
      await client.connect();
    } catch (err) {
      throw new LogBackendError(`PostgreSQL at ${shown} cannot be reached: ${reason(err)}`);
    }
    try {
      await client.query('SET default_transaction_read_only = on');
      const page = await client.query<{ ts: Date | string; msg: unknown; labels: unknown }>(
        `SELECT src.${ts} AS ts, src.${msg}::text AS msg, ${labelsSql} AS labels ${from}
         ORDER BY src.${ts} DESC LIMIT ${q.limit + 1} OFFSET ${offset}`,
        params,
      );
      const count = await client.query<{ n: string }>(`SELECT count(*) AS n ${from}`, params);
      const rows = page.rows.slice(0, q.limit);
      return {
        results: rows.map((r) => ({
          timestamp: new Date(r.ts).toISOString(),
          message: String(r.msg ?? ''),
          labels:
            r.labels && typeof r.labels === 'object' && !Array.isArray(r.labels)
              ? Object.fromEntries(
                  Object.entries(r.labels).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
                )
              : {},
        })),
        total: Number(count.rows[0].n),
        totalRelation: 'eq',
        next: page.rows.length > q.limit ? encodePage({ o: offset + q.limit } satisfies Token) : undefined,
      };
    } catch (err) {
      if (err instanceof LogBackendError) throw err;
      throw new LogBackendError(`PostgreSQL at ${shown} refused the log query: ${reason(err)}`);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
