import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult } from './types.ts';

// Same conversions as the pg driver so both drivers answer identically.
const parsers = {
  [pgliteTypes.INT8]: (v: string) => Number(v),
  [pgliteTypes.TIMESTAMP]: (v: string) => v,
  [pgliteTypes.TIMESTAMPTZ]: (v: string) => v,
  [pgliteTypes.DATE]: (v: string) => v,
};

function wrap(q: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await q.query<T>(sql, params, { parsers });
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, fields: r.fields } as QueryResult<T>;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  };
}

/** dataDir undefined means in-memory (tests). */
export async function createPgliteDb(dataDir?: string): Promise<Db> {
  const db = await PGlite.create(dataDir);
  // PostgreSQL's default of 4 MB is sized for many connections sharing a server; this is the only
  // one. The health summary's aggregate over an hour of 5,000 checks' runs spilled to temporary
  // files at 4 MB (a fifth of its time); memory here is the process's own.
  await db.exec(`SET work_mem = '64MB'`);
  const base = wrap(db);
  return {
    driver: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    // one connection: nothing to batch
    async readRow<T>(sql: string, params: unknown[]) {
      const { rows } = await base.query<T>(sql, params);
      if (rows.length !== 1) throw new Error(`readRow: the statement returned ${rows.length} rows`);
      return rows[0];
    },
    // PGlite hands over a whole result at once: the rows exist together here anyway
    async each<T>(sql: string, params: unknown[], onRow: (row: T) => void) {
      const { rows } = await base.query<T>(sql, params);
      for (const row of rows) onRow(row);
      return rows.length;
    },
    async close() {
      await db.close();
    },
  };
}
