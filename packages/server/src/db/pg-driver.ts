import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryResult } from './types.ts';
import { ReadBatcher } from './read-batch.ts';

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

function wrap(client: pg.PoolClient | pg.Pool, statements: StatementNames): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const name = statements.nameFor(sql, params.length > 0);
      const r = await client.query({ name, text: sql, values: params, types });
      return {
        rows: r.rows as T[],
        rowCount: r.rowCount ?? 0,
        fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      } as QueryResult<T>;
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export function createPgDb(connectionString: string, max = 20): Db {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const statements = new StatementNames();
  const base = wrap(pool, statements);
  const batcher = new ReadBatcher({
    query: async <T>(sql: string, params: unknown[]) => (await base.query<T>(sql, params)).rows,
    async acquire() {
      const client = await pool.connect();
      const q = wrap(client, statements);
      return {
        query: async <T>(sql: string, params: unknown[]) => (await q.query<T>(sql, params)).rows,
        release: () => client.release(),
      };
    },
  });
  return {
    driver: 'pg',
    query: base.query,
    exec: base.exec,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client, statements));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    readRow: (sql, params) => batcher.read(sql, params),
    batchStats: () => ({ ...batcher.stats }),
    async each<T>(sql: string, params: unknown[], onRow: (row: T) => void) {
      const client = await pool.connect();
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
            try {
              onRow(row);
              count++;
            } catch (err) {
              failed = err;
            }
          });
          query.on('error', reject);
          query.on('end', () => (failed === undefined ? resolve(count) : reject(failed)));
          void client.query(query);
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
