/**
 * The liveness of the processes that run the engines (table engine_processes, migration 0181).
 * Each one registers at start, beats every `heartbeatMs` and leaves at a clean stop. Every beat
 * also closes the RUNNING job-history rows of processes that stopped beating more than
 * `staleAfterMs` ago: a replica killed mid-run has its runs marked STOPPED by the survivors
 * within staleAfterMs + heartbeatMs, and a starting replica leaves the runs of live ones alone.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/index.ts';

/** 10 s beats, 30 s window: a dead replica's runs are closed within 40 s. */
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 30_000;

export interface ProcessOptions {
  heartbeatMs?: number;
  staleAfterMs?: number;
  onError?: (err: unknown) => void;
  /** told how many RUNNING rows of gone processes a beat (or the start) closed */
  onClosed?: (count: number) => void;
}

export class EngineProcess {
  /** written into job_history.process_id by the runs of this process's engines */
  readonly id = randomUUID();
  private timer?: NodeJS.Timeout;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: ProcessOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.staleAfterMs = opts.staleAfterMs ?? STALE_AFTER_MS;
  }

  /**
   * Registers this process and closes the runs of gone ones. A process that starts with no other
   * live process also closes ownerless RUNNING rows (written outside the engines or before 0181):
   * nobody alive can be running them.
   */
  async start(): Promise<void> {
    await this.register();
    this.report(await closeRunsOfGoneProcesses(this.db, this.staleAfterMs, { ownerless: !(await this.othersAlive()) }));
    this.timer = setInterval(() => void this.beat().catch((err) => this.opts.onError?.(err)), this.heartbeatMs);
    this.timer.unref();
  }

  /** One heartbeat: refresh last_seen (re-register if a survivor took us for dead), then sweep. */
  async beat(): Promise<void> {
    const r = await this.db.query(`UPDATE engine_processes SET last_seen = now() WHERE id = $1`, [this.id]);
    if (r.rowCount === 0) await this.register();
    this.report(await closeRunsOfGoneProcesses(this.db, this.staleAfterMs, { ownerless: false }));
  }

  /** A clean stop (after the engines finished their runs): this process is no longer counted. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.db.query(`DELETE FROM engine_processes WHERE id = $1`, [this.id]);
  }

  private async register(): Promise<void> {
    await this.db.query(
      `INSERT INTO engine_processes (id, hostname, pid) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET last_seen = now()`,
      [this.id, hostname(), process.pid],
    );
  }

  private async othersAlive(): Promise<boolean> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM engine_processes
       WHERE id <> $1 AND last_seen > now() - ($2::int * interval '1 millisecond')`,
      [this.id, this.staleAfterMs],
    );
    return rows[0].n > 0;
  }

  private report(count: number) {
    if (count) this.opts.onClosed?.(count);
  }
}

/**
 * Marks STOPPED the RUNNING rows whose process has not beaten within `staleAfterMs` (or has no
 * row any more), and forgets such processes. With `ownerless`, rows without a process go too.
 */
export async function closeRunsOfGoneProcesses(
  db: Db,
  staleAfterMs: number,
  { ownerless }: { ownerless: boolean },
): Promise<number> {
  const r = await db.query(
    `UPDATE job_history h SET status = 'STOPPED',
       details = coalesce(details, '{}'::jsonb) || jsonb_build_object('errors', 'stale: the server stopped while this job was running'),
       duration_millis = (extract(epoch from (now() - time_start)) * 1000)::bigint, time_end = now()
     WHERE status = 'RUNNING'
       AND (CASE WHEN h.process_id IS NULL THEN $2::boolean
            ELSE NOT EXISTS (SELECT 1 FROM engine_processes p
                             WHERE p.id = h.process_id AND p.last_seen > now() - ($1::int * interval '1 millisecond')) END)`,
    [staleAfterMs, ownerless],
  );
  await db.query(`DELETE FROM engine_processes WHERE last_seen <= now() - ($1::int * interval '1 millisecond')`, [
    staleAfterMs,
  ]);
  return r.rowCount;
}
