import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPgDb } from './pg-driver.ts';
import { createPgliteDb } from './pglite-driver.ts';
import type { Db } from './types.ts';

export type { Db, Queryable } from './types.ts';
export { migrate, pendingMigrations } from './migrate.ts';
export { isConnectionError, isStatementTimeout } from './errors.ts';
export { vacuumHotTables } from './maintenance.ts';

/** DATABASE_URL set: PostgreSQL pool. Unset: PGlite persisted under dataDir ('memory://' for none). */
export async function openDb(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** PostgreSQL only (PGlite cannot interrupt a statement): see pg-driver.ts */
  statementTimeoutMs?: number;
  onError?: (err: Error) => void;
  /** PostgreSQL only: the schema names resolve in (pg-driver.ts) */
  searchPath?: string;
}): Promise<Db> {
  if (opts.databaseUrl)
    return createPgDb(opts.databaseUrl, opts.poolSize, {
      statementTimeoutMs: opts.statementTimeoutMs,
      onError: opts.onError,
      searchPath: opts.searchPath,
    });
  if (opts.searchPath) throw new Error('a search path needs PostgreSQL (DATABASE_URL)');
  if (!opts.dataDir || opts.dataDir === 'memory://') return createPgliteDb();
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const db = await createPgliteDb(opts.dataDir);
  ownerOnly(opts.dataDir);
  return db;
}

/**
 * The data directory holds the whole database and secret.key: only its owner may enter it.
 * PGlite unpacks its initial files world-writable (0666, before the umask); PostgreSQL code
 * creates later files 0600 and directories 0700. Tightened on every open, so a directory made
 * by an older version is fixed too.
 */
function ownerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ownerOnly(path);
    else if (entry.isFile() && (lstatSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
}
