/**
 * Job history: every engine run records RUNNING, then SUCCESS / WARNING / FAILED with counts,
 * duration and details. The RUNNING row is written before the work starts so a crash leaves a
 * trace; it names the process that runs it (process_id), and once that process stops beating
 * the survivors mark it STOPPED (processes.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/index.ts';

/**
 * The engine process a run belongs to. The scheduler and the event queue run their work inside
 * it, so areas call runJob(db, ...) without passing it; two engine instances in one Node process
 * (tests) each stamp their own runs.
 */
export const jobOwner = new AsyncLocalStorage<string>();

/** A finished run, for observers (metrics): which process ran it (jobOwner), name, status, duration. */
export interface JobRunReport {
  processId: string | undefined;
  name: string;
  status: JobStatus;
  durationMs: number;
}
const runObservers = new Set<(run: JobRunReport) => void>();

/**
 * Calls fn after every finished run in this Node process; returns the unsubscribe. Runs carry their
 * processId, so an observer of one engine set (two apps in one process: tests) can keep its own.
 */
export function observeJobRuns(fn: (run: JobRunReport) => void): () => void {
  runObservers.add(fn);
  return () => void runObservers.delete(fn);
}

export type JobStatus = 'RUNNING' | 'SUCCESS' | 'WARNING' | 'FAILED' | 'STOPPED';

export interface JobContext {
  success(n?: number): void;
  error(err: unknown, key?: string): void;
  warn(message: string): void;
  /** Extra details shown in the job's modal (scrape_summary, summary, ...). */
  details: Record<string, unknown>;
}

export interface JobInfo {
  name: string;
  resourceType?: string;
  resourceId?: string;
  agentId?: string;
}

export async function runJob<T>(
  db: Db,
  info: JobInfo,
  fn: (ctx: JobContext) => Promise<T>,
): Promise<{ id: string; status: JobStatus; result?: T }> {
  const started = Date.now();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO job_history (name, resource_type, resource_id, agent_id, status, time_start, process_id)
     VALUES ($1, $2, $3, $4, 'RUNNING', now(), $5) RETURNING id`,
    [info.name, info.resourceType ?? null, info.resourceId ?? null, info.agentId ?? null, jobOwner.getStore() ?? null],
  );
  const id = rows[0].id;
  let successCount = 0;
  const errors: string[] = [];
  const keyed: Record<string, string> = {};
  const warnings: string[] = [];
  const ctx: JobContext = {
    success: (n = 1) => void (successCount += n),
    error: (err, key) => {
      const msg = err instanceof Error ? err.message : String(err);
      if (key) keyed[key] = msg;
      else errors.push(msg);
    },
    warn: (m) => void warnings.push(m),
    details: {},
  };
  let result: T | undefined;
  let thrown: unknown;
  try {
    result = await fn(ctx);
  } catch (err) {
    thrown = err;
    ctx.error(err);
  }
  const errorCount = errors.length + Object.keys(keyed).length;
  const status: JobStatus = thrown
    ? 'FAILED'
    : errorCount > 0
      ? successCount > 0
        ? 'WARNING'
        : 'FAILED'
      : warnings.length
        ? 'WARNING'
        : 'SUCCESS';
  const details: Record<string, unknown> = { ...ctx.details };
  if (Object.keys(keyed).length) details.errors = errors.length ? { ...keyed, '': errors.join('; ') } : keyed;
  else if (errors.length) details.errors = errors.length === 1 ? errors[0] : errors;
  if (warnings.length) details.warnings = warnings;
  const durationMs = Date.now() - started;
  await db.query(
    `UPDATE job_history SET status = $2, success_count = $3, error_count = $4,
       duration_millis = $5, details = $6::jsonb, time_end = now() WHERE id = $1`,
    [id, status, successCount, errorCount, durationMs, JSON.stringify(details)],
  );
  for (const observe of runObservers) observe({ processId: jobOwner.getStore(), name: info.name, status, durationMs });
  return { id, status, result };
}

/** Deletes job history older than the retention period. */
export async function pruneJobHistory(db: Db, retentionDays: number): Promise<number> {
  const r = await db.query(`DELETE FROM job_history WHERE created_at < now() - ($1::int * interval '1 day')`, [
    retentionDays,
  ]);
  return r.rowCount;
}
