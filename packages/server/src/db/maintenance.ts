import type { Db } from './types.ts';

/**
 * The tables the engines write all day: every check run inserts a status, updates its check,
 * writes a job-history row twice and a scheduler claim; every event a delivery row or more.
 * PostgreSQL's autovacuum keeps them tidy; PGlite has no background processes, so nothing does
 * there unless this job runs: dead row versions pile up (each check's row is rewritten every run),
 * index-only scans never become index-only (no visibility map) and the planner keeps the
 * estimates of an empty table (a hash aggregate over 300,000 runs planned for 800 spilled to
 * disk). Listed by name, not read from pg_stat_user_tables: PGlite's statistics counters stay at
 * zero between its statements.
 */
const HOT_TABLES = [
  'checks',
  'check_statuses',
  'check_feed',
  'check_statuses_1h',
  'check_statuses_1d',
  'canaries',
  'job_history',
  'scheduler_claims',
  'engine_processes',
  'event_consumers',
  'event_deliveries',
  'event_queue',
  'identity_sessions',
] as const;

export interface MaintenanceReport {
  /** the tables vacuumed and analysed, with the milliseconds each took */
  tables: { table: string; ms: number }[];
}

/**
 * VACUUM (ANALYZE) of each hot table, one statement per table: on PGlite one statement holds the
 * one connection (and the event loop) while it runs, so the check engine and requests get their
 * turn between two tables instead of waiting for all of them. A table missing from this
 * database's schema is skipped.
 */
export async function vacuumHotTables(db: Db, tables: readonly string[] = HOT_TABLES): Promise<MaintenanceReport> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY($1::text[])`,
    [tables],
  );
  const present = new Set(rows.map((r) => r.name));
  const report: MaintenanceReport = { tables: [] };
  for (const table of tables) {
    if (!present.has(table)) continue;
    const started = performance.now();
    // a name from the list above, checked against the catalog: never input
    await db.exec(`VACUUM (ANALYZE) ${table}`);
    report.tables.push({ table, ms: Math.round(performance.now() - started) });
    await new Promise((r) => setImmediate(r));
  }
  return report;
}
