import { mkdirSync } from 'node:fs';
import { createPgDb } from './pg-driver.ts';
import { createPgliteDb } from './pglite-driver.ts';
import type { Db } from './types.ts';

export type { Db, Queryable, QueryResult } from './types.ts';
export { migrate } from './migrate.ts';
export { isConnectionError, isStatementTimeout } from './errors.ts';

/** DATABASE_URL set: PostgreSQL pool. Unset: PGlite persisted under dataDir ('memory://' for none). */
export async function openDb(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** PostgreSQL only (PGlite cannot interrupt a statement): see pg-driver.ts */
  statementTimeoutMs?: number;
  onError?: (err: Error) => void;
}): Promise<Db> {
  if (opts.databaseUrl)
    return createPgDb(opts.databaseUrl, opts.poolSize, {
      statementTimeoutMs: opts.statementTimeoutMs,
      onError: opts.onError,
    });
  if (!opts.dataDir || opts.dataDir === 'memory://') return createPgliteDb();
  mkdirSync(opts.dataDir, { recursive: true });
  return createPgliteDb(opts.dataDir);
}
