import { mkdirSync } from 'node:fs';
import { createPgDb } from './pg-driver.ts';
import { createPgliteDb } from './pglite-driver.ts';
import type { Db } from './types.ts';

export type { Db, Queryable, QueryResult } from './types.ts';
export { migrate } from './migrate.ts';

/** DATABASE_URL set: PostgreSQL pool. Unset: PGlite persisted under dataDir ('memory://' for none). */
export async function openDb(opts: { databaseUrl?: string; dataDir?: string; poolSize?: number }): Promise<Db> {
  if (opts.databaseUrl) return createPgDb(opts.databaseUrl, opts.poolSize);
  if (!opts.dataDir || opts.dataDir === 'memory://') return createPgliteDb();
  mkdirSync(opts.dataDir, { recursive: true });
  return createPgliteDb(opts.dataDir);
}
