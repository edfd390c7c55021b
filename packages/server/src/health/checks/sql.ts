import pg from 'pg';
import mysql from 'mysql2/promise';
import { assertOutboundHost } from '#server/http/outbound.ts';
import { credentialsFor, urlWithCredentials } from '../connections.ts';
import { abortable, num, secretOrValue, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * PostgreSQL and MySQL/MariaDB checks: connect (a connection by name, or `url`), run `query`
 * (default SELECT 1), and compare the row count with `results` when given. The rows reach the
 * `test` expression as `results.rows` (and `rows`, `count`). Each run opens and closes its own
 * connection: the check is whether a client can get in, not whether a pool stays warm.
 */
async function target(spec: Record<string, unknown>, ctx: CheckContext, scheme: string): Promise<string> {
  const connection = str(spec, 'connection');
  let url = str(spec, 'url');
  let user = secretOrValue(spec.username, 'username');
  let pass = secretOrValue(spec.password, 'password');
  if (connection) {
    const c = await ctx.connections.get(connection);
    url ??= c.url ?? undefined;
    const lent = credentialsFor(c, url);
    user ??= lent.username;
    pass ??= lent.password;
  }
  const auth = spec.auth as Record<string, unknown> | undefined;
  if (auth && typeof auth === 'object') {
    user = secretOrValue(auth.username, 'auth.username') ?? user;
    pass = secretOrValue(auth.password, 'auth.password') ?? pass;
  }
  if (!url) throw new Error('give a connection (its name under Settings > Connections) or a url');
  let full: string;
  try {
    full = urlWithCredentials(url, user, pass);
  } catch {
    throw new Error(`url must be a ${scheme} URL such as ${scheme}://user@host:port/database`);
  }
  // the outbound deny list (WATCHDECK_OUTBOUND_DENY) holds for database connections too
  const host = new URL(full).hostname;
  if (host) await assertOutboundHost(host);
  return full;
}

function verdict(spec: Record<string, unknown>, rows: Record<string, unknown>[]): CheckOutcome {
  const count = rows.length;
  const vars = { results: { rows, count }, rows, count };
  const message = `query returned ${count} row${count === 1 ? '' : 's'}`;
  const expected = num(spec, 'results');
  if (expected !== undefined && count !== expected) {
    return { pass: false, message, error: `query returned ${count} rows, expected ${expected}`, vars };
  }
  return { pass: true, message, vars };
}

/** Node's errors for a refused or unknown host name the address; keep them, drop stack noise. */
function connectError(what: string, err: Error & { code?: string }): Error {
  if (err.code === 'ECONNREFUSED')
    return new Error(`${what}: connection refused: is the server running and listening there?`);
  return new Error(`${what}: ${err.message}`);
}

export async function postgresCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const url = await target(spec, ctx, 'postgres');
  const query = str(spec, 'query') ?? 'SELECT 1';
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: ctx.timeoutMs,
    statement_timeout: ctx.timeoutMs,
    application_name: 'watchdeck-health',
  });
  client.on('error', () => {}); // a dropped connection is reported by the query
  try {
    try {
      await abortable(client.connect(), ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw connectError('cannot connect to PostgreSQL', err as Error & { code?: string });
    }
    let rows: Record<string, unknown>[];
    try {
      rows = (await abortable(client.query(query), ctx.signal)).rows as Record<string, unknown>[];
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new Error(`query failed: ${(err as Error).message}`, { cause: err });
    }
    return verdict(spec, rows);
  } finally {
    void client.end().catch(() => {});
  }
}

export async function mysqlCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const url = await target(spec, ctx, 'mysql');
  const query = str(spec, 'query') ?? 'SELECT 1';
  let conn: mysql.Connection;
  try {
    conn = await abortable(mysql.createConnection({ uri: url, connectTimeout: ctx.timeoutMs }), ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    throw connectError('cannot connect to MySQL', err as Error & { code?: string });
  }
  conn.on('error', () => {}); // a dropped connection fails the query; unheard, the event would crash the process
  try {
    let rows: Record<string, unknown>[];
    try {
      const [result] = await abortable(conn.query({ sql: query, timeout: ctx.timeoutMs }), ctx.signal, () =>
        conn.destroy(),
      );
      rows = Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new Error(`query failed: ${(err as Error).message}`, { cause: err });
    }
    return verdict(spec, rows);
  } finally {
    void conn.end().catch(() => conn.destroy());
  }
}
