import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryResult } from './types.ts';
import { ReadBatcher } from './read-batch.ts';
import { isConnectionError } from './errors.ts';

// Keep PostgreSQL's text for types whose JS conversion would lose information or differ from
// PGlite (int8, numeric, timestamps): callers that need JSON build it in SQL anyway.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v); // int8: counts; safe below 2^53
    if (oid === 1114 || oid === 1184 || oid === 1082) return (v: string) => v;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Server-side prepared statements for the queries a server repeats (the session lookup, the
 * /api/db shapes of each screen): PostgreSQL then parses and plans them once per connection,
 * which for a view-backed read is most of its cost. A text is prepared once it has been seen a
 * few times, and only a bounded number of texts ever are, so odd one-off queries cannot grow
 * every backend's memory. Texts without parameters may hold several statements: never prepared.
 */
export class StatementNames {
  private seen = new Map<string, number>();
  private names = new Map<string, string>();
  constructor(
    private readonly threshold = 3,
    private readonly cap = 1000,
  ) {}

  nameFor(text: string, hasParams: boolean): string | undefined {
    if (!hasParams) return undefined;
    const known = this.names.get(text);
    if (known) return known;
    if (this.names.size >= this.cap) return undefined;
    const n = (this.seen.get(text) ?? 0) + 1;
    if (n < this.threshold) {
      if (this.seen.size >= this.cap * 10) this.seen.clear();
      this.seen.set(text, n);
      return undefined;
    }
    this.seen.delete(text);
    const name = `wd_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}

async function runQuery<T>(
  client: pg.PoolClient,
  statements: StatementNames,
  sql: string,
  params: unknown[],
): Promise<QueryResult<T>> {
  const name = statements.nameFor(sql, params.length > 0);
  const r = await client.query({ name, text: sql, values: params, types });
  return {
    rows: r.rows as T[],
    rowCount: r.rowCount ?? 0,
    fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  } as QueryResult<T>;
}

function wrap(client: pg.PoolClient, statements: StatementNames): Queryable {
  return {
    query: <T>(sql: string, params: unknown[] = []) => runQuery<T>(client, statements, sql, params),
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export interface PgDbOptions {
  /**
   * PostgreSQL's statement_timeout for every connection of the pool, in milliseconds (0 or unset:
   * none). A statement running longer is cancelled by PostgreSQL with SQLSTATE 57014.
   */
  statementTimeoutMs?: number;
  /** told about a connection that failed while nobody was using it (the pool drops it) */
  onError?: (err: Error) => void;
  /**
   * The one schema every connection of the pool resolves names in (hosted mode: an organisation's
   * schema, organizations/README.md). Set at connection start-up, so no statement runs before it.
   * Lowercase letters, digits and underscores only.
   */
  searchPath?: string;
}

/** How long a read waits before its one retry on a new connection (a restart needs a moment). */
const RETRY_DELAY_MS = 200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createPgDb(connectionString: string, max = 20, opts: PgDbOptions = {}): Db {
  if (opts.searchPath !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(opts.searchPath))
    throw new Error(`invalid search path schema: ${opts.searchPath}`);
  const pool = new pg.Pool({
    connectionString,
    max,
    // JIT off: the console's statements are short reads whose plan cost still crosses
    // jit_above_cost on large tables (the catalog summary over 100k items), and compiling them
    // cost more than it saved (the summary: ~400 ms of a 3.3 s statement spent emitting code on a
    // busy host, 2x slower overall; bench/RESULTS.md)
    options: ['-c jit=off', ...(opts.searchPath ? [`-c search_path=${opts.searchPath}`] : [])].join(' '),
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
  });
  // Every client listens for errors for its whole life. node-postgres emits 'error' on a client
  // whose backend goes away (pg_terminate_backend, a restart), and pg-pool listens only while a
  // client is idle: an error on a checked-out client (in a transaction, between two statements)
  // had no listener and crashed the process. The statement in flight fails on its own; the
  // broken client is dropped when it is released.
  pool.on('connect', (client) => client.on('error', (err) => opts.onError?.(err)));
  pool.on('error', () => {}); // an idle client's error: reported by the listener above
  const statements = new StatementNames();

  /** A pooled client; a refused or failed connect is tried once more (the database restarting). */
  const checkout = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      await pause(RETRY_DELAY_MS);
      return pool.connect();
    }
  };
  /** Back to the pool, or closed for good when its connection failed. */
  const release = (client: pg.PoolClient, err?: unknown) =>
    client.release(isConnectionError(err) ? (err as Error) : undefined);

  /** A read sent again, once, on a fresh connection when its connection failed under it. */
  const retryRead = async <T>(read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      await pause(RETRY_DELAY_MS);
      return read();
    }
  };

  /** One statement on a client of its own (what pool.query does, with the handling above). */
  const query = async <T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> => {
    const client = await checkout();
    let failed: unknown;
    try {
      return await runQuery<T>(client, statements, sql, params);
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      release(client, failed);
    }
  };

  const batcher = new ReadBatcher({
    query: async <T>(sql: string, params: unknown[]) => (await query<T>(sql, params)).rows,
    async acquire() {
      const client = await checkout();
      let failed: unknown;
      return {
        query: async <T>(sql: string, params: unknown[]) => {
          try {
            return (await runQuery<T>(client, statements, sql, params)).rows;
          } catch (err) {
            if (isConnectionError(err)) failed = err;
            throw err;
          }
        },
        release: () => release(client, failed),
      };
    },
  });
  return {
    driver: 'pg',
    query,
    async exec(sql: string) {
      const client = await checkout();
      let failed: unknown;
      try {
        await client.query(sql);
      } catch (err) {
        failed = err;
        throw err;
      } finally {
        release(client, failed);
      }
    },
    async transaction(fn) {
      let client = await checkout();
      try {
        await client.query('BEGIN');
      } catch (err) {
        // nothing ran yet: a connection that failed at BEGIN is replaced once
        release(client, err);
        if (!isConnectionError(err)) throw err;
        client = await checkout();
        try {
          await client.query('BEGIN');
        } catch (again) {
          release(client, again);
          throw again;
        }
      }
      let failed: unknown;
      try {
        const result = await fn(wrap(client, statements));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        failed = err;
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        release(client, failed);
      }
    },
    readRow: (sql, params) => retryRead(() => batcher.read(sql, params)),
    batchStats: () => ({ ...batcher.stats }),
    poolStats: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async each<T>(sql: string, params: unknown[], onRow: (row: T) => void) {
      let delivered = false;
      const once = async () => {
        const client = await checkout();
        let failedConn: unknown;
        try {
          return await new Promise<number>((resolve, reject) => {
            // a Query with a 'row' listener does not accumulate its rows (pg/lib/query.js)
            const query = new pg.Query({
              name: statements.nameFor(sql, params.length > 0),
              text: sql,
              values: params,
              types,
            });
            let count = 0;
            let failed: unknown;
            query.on('row', (row: T) => {
              if (failed !== undefined) return;
              delivered = true;
              try {
                onRow(row);
                count++;
              } catch (err) {
                failed = err;
              }
            });
            query.on('error', (err) => {
              failedConn = err;
              reject(err);
            });
            query.on('end', () => (failed === undefined ? resolve(count) : reject(failed)));
            void client.query(query);
          });
        } finally {
          release(client, failedConn);
        }
      };
      try {
        return await once();
      } catch (err) {
        // rows already handed out cannot be taken back: only a read that gave none is sent again
        if (delivered || !isConnectionError(err)) throw err;
        await pause(RETRY_DELAY_MS);
        return once();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
