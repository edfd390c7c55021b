/**
 * The `sql` kind: a query through a connection (PostgreSQL through pg, MySQL and MariaDB through
 * mysql2), one item per row; `id`, `type` and `name` map a row as they map any document
 * (`id: $.id`, or a literal). The driver is the spec's `driver`, else the connection's type, else
 * the URL's scheme. `auth` overrides the connection's username and password.
 */
import pg from 'pg';
import mysql from 'mysql2';
import { mapDocument, type MappingSpec } from '#server/catalog/mapping.ts';
import type { ScrapeContext, ScrapeResult } from '#server/catalog/scrape/types.ts';

interface SqlSpec extends MappingSpec {
  connection: string;
  query: string;
  driver?: string;
  auth?: { username?: unknown; password?: unknown };
}

const TIMEOUT_MS = 60_000;
const MAX_ROWS = 100_000;

const plain = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'string'
      ? (v as { value: string }).value
      : undefined;

export function sqlDriver(driver: string | undefined, type?: unknown, url?: unknown): 'postgres' | 'mysql' {
  const d = (driver ?? (typeof type === 'string' ? type : '') ?? '').toLowerCase();
  if (['postgres', 'postgresql', 'pg'].includes(d)) return 'postgres';
  if (['mysql', 'mariadb'].includes(d)) return 'mysql';
  if (d && driver) throw new Error(`driver ${driver} is not supported; use postgres or mysql`);
  const scheme = typeof url === 'string' ? url.split(':')[0].toLowerCase() : '';
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql';
  throw new Error(`the connection is neither PostgreSQL nor MySQL (type ${String(type)}); set driver`);
}

/** JSON-safe row values: dates as ISO text, buffers as base64, bigints as text. */
function jsonRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] =
      v instanceof Date
        ? v.toISOString()
        : Buffer.isBuffer(v)
          ? v.toString('base64')
          : typeof v === 'bigint'
            ? v.toString()
            : v;
  }
  return out;
}

/** A single statement: trailing semicolons and blanks go, so it can follow `DECLARE ... FOR`. */
const oneStatement = (query: string): string => query.replace(/[\s;]+$/, '');

const tooMany = (maxRows: number) => new Error(`the query returned more than ${maxRows} rows`);

/**
 * At most `maxRows` rows of a read-only query, never more in memory. PostgreSQL reads through a
 * cursor in a READ ONLY transaction, sent with the extended protocol so the query is exactly one
 * statement (`...; SET transaction_read_only = off; INSERT ...` is refused by the server);
 * MySQL/MariaDB streams rows (mysql2 runs one statement per call) and stops at the cap.
 */
async function queryRows(
  driver: 'postgres' | 'mysql',
  url: string,
  username: string | undefined,
  password: string | undefined,
  query: string,
  maxRows: number,
): Promise<Record<string, unknown>[]> {
  if (driver === 'postgres') {
    // pg lets the connection string's (empty) user win over a separate one: credentials go in it
    const target = new URL(url);
    if (username) target.username = encodeURIComponent(username);
    if (password) target.password = encodeURIComponent(password);
    const client = new pg.Client({
      connectionString: target.toString(),
      statement_timeout: TIMEOUT_MS,
      connectionTimeoutMillis: 10_000,
    });
    await client.connect();
    try {
      await client.query('BEGIN READ ONLY');
      // queryMode is pg's (8.12+) and missing from @types/pg
      await client.query({
        text: `DECLARE watchdeck_rows NO SCROLL CURSOR FOR ${oneStatement(query)}`,
        queryMode: 'extended',
      } as pg.QueryConfig);
      const { rows } = await client.query(`FETCH ${maxRows + 1} FROM watchdeck_rows`);
      if (rows.length > maxRows) throw tooMany(maxRows);
      return rows as Record<string, unknown>[];
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const target = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const conn = mysql.createConnection({
    host: target.hostname,
    port: target.port ? Number(target.port) : 3306,
    user: username ?? decodeURIComponent(target.username),
    password: password ?? decodeURIComponent(target.password),
    database: target.pathname.replace(/^\//, '') || undefined,
    connectTimeout: 10_000,
    dateStrings: false,
  });
  try {
    // read-only: each statement (autocommit) is a transaction of this session
    await new Promise<void>((resolve, reject) =>
      conn.query('SET SESSION TRANSACTION READ ONLY', (err) => (err ? reject(err) : resolve())),
    );
    return await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const rows: Record<string, unknown>[] = [];
      let done = false;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        if (err) reject(err);
        else resolve(rows);
      };
      conn
        .query({ sql: query, timeout: TIMEOUT_MS })
        .on('result', (row) => {
          // a statement that is not a SELECT answers one OkPacket, not rows
          if (done || Array.isArray(row) || 'affectedRows' in row) return;
          rows.push(row as Record<string, unknown>);
          if (rows.length > maxRows) {
            conn.destroy();
            finish(tooMany(maxRows));
          }
        })
        .on('error', (err) => finish(err))
        .on('end', () => finish());
    });
  } finally {
    conn.end(() => undefined);
  }
}

/** Rows of a read-only query as JSON-safe objects (the topology engine's SQL lookups use it too). */
export async function sqlRows(
  driver: 'postgres' | 'mysql',
  url: string,
  username: string | undefined,
  password: string | undefined,
  query: string,
  maxRows: number,
): Promise<Record<string, unknown>[]> {
  return (await queryRows(driver, url, username, password, query, maxRows)).map(jsonRow);
}

export async function scrapeSql(raw: Record<string, unknown>, ctx: ScrapeContext): Promise<ScrapeResult> {
  const spec = raw as unknown as SqlSpec;
  const c = await ctx.connection(spec.connection);
  const url = typeof c.url === 'string' ? c.url : '';
  if (!url) throw new Error(`connection ${spec.connection} has no URL`);
  const driver = sqlDriver(spec.driver, c.type, url);
  const username =
    plain(spec.auth?.username) ?? (typeof c.username === 'string' && c.username ? c.username : undefined);
  const password =
    plain(spec.auth?.password) ?? (typeof c.password === 'string' && c.password ? c.password : undefined);
  const rows = await queryRows(driver, url, username, password, spec.query, MAX_ROWS);
  const result: ScrapeResult = { items: [], changes: [], relationships: [], errors: [] };
  const source = `${driver}:${spec.connection}`;
  rows.forEach((row, i) => {
    const { items, errors } = mapDocument(jsonRow(row), spec, { id: `row ${i}`, name: `row ${i}`, source });
    result.items.push(...items);
    result.errors.push(...errors);
  });
  return result;
}
