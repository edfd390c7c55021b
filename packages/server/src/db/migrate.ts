import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from './types.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface MigrateOptions {
  /** the versioned migrations (NNNN_name.sql); default db/migrations */
  migrationsDir?: string;
  /** the folder whose <area>/sql/NN-name.sql files are applied after them; default src/ */
  areasDir?: string;
}

/**
 * Applies migrations/NNNN_name.sql in order, recorded in schema_migrations, then the areas' SQL
 * files (views, functions, triggers: <area>/sql/NN-name.sql, db/README.md) whose content changed,
 * recorded with their hash in schema_sql_files. All in one transaction, under an advisory lock
 * so two replicas starting together do not race. Returns the versioned migrations applied.
 */
export async function migrate(db: Db, opts: MigrateOptions = {}): Promise<string[]> {
  const dir = opts.migrationsDir ?? join(here, 'migrations');
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // a migration may rewrite a large table: WATCHDECK_DB_STATEMENT_TIMEOUT is for requests
    await tx.query(`SET LOCAL statement_timeout = 0`);
    await tx.query('SELECT pg_advisory_xact_lock(727274)');
    const done = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(readFileSync(join(dir, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    // a versioned migration may have dropped what an unchanged file defines (a view over a
    // column it retypes): after any, every file runs again
    await applyAreaSql(tx, opts.areasDir ?? join(here, '..'), applied.length > 0);
  });
  return applied;
}

/**
 * The versioned migrations of this build not recorded in schema_migrations (readiness: a replica
 * whose database is behind its code is not ready). One cheap query; the area SQL files are
 * applied with them by migrate(), so they are not checked separately.
 */
export async function pendingMigrations(
  db: Queryable,
  opts: Pick<MigrateOptions, 'migrationsDir'> = {},
): Promise<string[]> {
  const files = readdirSync(opts.migrationsDir ?? join(here, 'migrations')).filter((f) => /^\d{4}_.+\.sql$/.test(f));
  let done: Set<string>;
  try {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations WHERE name = ANY ($1)', [
      files,
    ]);
    done = new Set(rows.map((r) => r.name));
  } catch (err) {
    // never migrated: the table itself is missing (undefined_table)
    if ((err as { code?: string }).code !== '42P01') throw err;
    done = new Set();
  }
  return files.filter((f) => !done.has(f)).sort();
}

/**
 * The areas' SQL files in the order they are applied: by file name (its number says what it may
 * use: objects of files with a smaller number), then by path. Paths are relative to areasDir.
 */
export function areaSqlFiles(areasDir: string): string[] {
  const files: string[] = [];
  for (const area of readdirSync(areasDir, { withFileTypes: true })) {
    const sqlDir = join(areasDir, area.name, 'sql');
    if (!area.isDirectory() || !existsSync(sqlDir)) continue;
    for (const f of readdirSync(sqlDir)) if (/^\d{2}-.+\.sql$/.test(f)) files.push(`${area.name}/sql/${f}`);
  }
  return files.sort((a, b) => basename(a).localeCompare(basename(b)) || a.localeCompare(b));
}

async function applyAreaSql(tx: Queryable, areasDir: string, all: boolean): Promise<string[]> {
  await tx.exec(`CREATE TABLE IF NOT EXISTS schema_sql_files (
    path text PRIMARY KEY, hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const known = new Map(
    (await tx.query<{ path: string; hash: string }>('SELECT path, hash FROM schema_sql_files')).rows.map((r) => [
      r.path,
      r.hash,
    ]),
  );
  const applied: string[] = [];
  const paths = areaSqlFiles(areasDir);
  for (const path of paths) {
    const sql = readFileSync(join(areasDir, path), 'utf8');
    const hash = createHash('sha256').update(sql).digest('hex');
    if (!all && known.get(path) === hash) continue;
    try {
      await tx.exec(sql);
    } catch (err) {
      throw Object.assign(new Error(`${path}: ${(err as Error).message}`), { cause: err });
    }
    await tx.query(
      `INSERT INTO schema_sql_files (path, hash) VALUES ($1, $2)
       ON CONFLICT (path) DO UPDATE SET hash = EXCLUDED.hash, applied_at = now()`,
      [path, hash],
    );
    applied.push(path);
  }
  // a removed file leaves its objects (a versioned migration drops them) but not its record
  const gone = [...known.keys()].filter((p) => !paths.includes(p));
  if (gone.length) await tx.query('DELETE FROM schema_sql_files WHERE path = ANY ($1)', [gone]);
  return applied;
}
