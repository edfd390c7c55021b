import type { FastifyBaseLogger } from 'fastify';
import { vacuumHotTables, type Db } from '../db/index.ts';
import { EventQueue } from './event-queue.ts';
import { Scheduler, pruneClaims } from './scheduler.ts';
import { pruneJobHistory, runJob } from './job-history.ts';
import { EngineProcess } from './processes.ts';

export { publish, type ConsumedEvent, type DeliveryContext } from './event-queue.ts';
export { type JobSource } from './scheduler.ts';
export { runJob, observeJobRuns } from './job-history.ts';
export { eventBusStats } from './event-stats.ts';
export { resourceJobSource, type ScheduledResource } from './resource-source.ts';

export interface EnginesOptions {
  workers: number;
  jobHistoryRetentionDays: number;
  /** PGlite: ms between two VACUUM (ANALYZE) runs of the hot tables, 0 never (db/maintenance.ts) */
  vacuumIntervalMs?: number;
  /** liveness of this process among the replicas (processes.ts defaults: 10 s beats, 30 s window) */
  heartbeatMs?: number;
  staleAfterMs?: number;
  /** how late each scheduled slot fired, ms (metrics) */
  onSchedulerLag?: (lagMs: number) => void;
}

export interface Engines {
  scheduler: Scheduler;
  queue: EventQueue;
  /** this process in engine_processes; its id is on the job-history rows its runs write */
  process: EngineProcess;
  /** Work an area does once when this process's engines start (before the scheduler runs). */
  onStart(fn: () => Promise<void>): void;
  /** start() has finished and stop() has not been called (readiness) */
  readonly running: boolean;
  stop(): Promise<void>;
}

/**
 * The background engines of one process: the scheduler and the event-queue workers, plus the
 * housekeeping jobs they need (job-history retention, claim pruning, event-queue pruning). Areas
 * add their job sources and event consumers before start() is called.
 */
export function createEngines(
  db: Db,
  log: FastifyBaseLogger,
  opts: EnginesOptions,
): Engines & { start(): Promise<void> } {
  const proc = new EngineProcess(db, {
    heartbeatMs: opts.heartbeatMs,
    staleAfterMs: opts.staleAfterMs,
    onError: (err) => log.warn({ err }, 'engine heartbeat failed'),
    onClosed: (count) => log.warn({ count }, 'marked job runs of stopped processes as STOPPED'),
  });
  const scheduler = new Scheduler(db, {
    processId: proc.id,
    onError: (err, key) => log.error({ err, job: key }, 'scheduled job failed'),
    onFired: opts.onSchedulerLag,
  });
  const queue = new EventQueue(db, {
    processId: proc.id,
    onError: (err, event) =>
      log.warn({ err, event: event?.name, consumer: event?.consumer, delivery: event?.key }, 'event consumer failed'),
  });

  scheduler.addSource({
    name: 'housekeeping',
    list: async () => [
      {
        key: 'housekeeping:job-history-retention',
        schedule: '@every 24h',
        run: () =>
          runJob(db, { name: 'CleanupJobHistory' }, async (ctx) =>
            ctx.success(await pruneJobHistory(db, opts.jobHistoryRetentionDays)),
          ).then(() => {}),
      },
      { key: 'housekeeping:scheduler-claims', schedule: '@every 1h', run: () => pruneClaims(db) },
      {
        key: 'housekeeping:event-queue',
        schedule: '@every 1h',
        run: () =>
          runJob(db, { name: 'CleanupEventQueue' }, async (ctx) => ctx.success(await queue.prune())).then(() => {}),
      },
      // PGlite runs no autovacuum: this job is it (db/maintenance.ts). PostgreSQL needs none.
      ...(db.driver === 'pglite' && opts.vacuumIntervalMs
        ? [
            {
              key: 'housekeeping:vacuum',
              schedule: `@every ${opts.vacuumIntervalMs}ms`,
              run: () =>
                runJob(db, { name: 'VacuumDatabase' }, async (ctx) => {
                  const { tables } = await vacuumHotTables(db);
                  ctx.details.tables = Object.fromEntries(tables.map((t) => [t.table, `${t.ms} ms`]));
                  ctx.success(tables.length);
                }).then(() => {}),
            },
          ]
        : []),
    ],
  });

  let started = false;
  let running = false;
  const starters: (() => Promise<void>)[] = [];
  return {
    scheduler,
    queue,
    process: proc,
    onStart: (fn) => void starters.push(fn),
    async start() {
      // Registers this process and closes only the runs of processes that are gone.
      await proc.start();
      started = true;
      for (const fn of starters) await fn();
      // consumers first: the scheduled runs publish events they must receive
      await queue.start(opts.workers);
      await scheduler.start();
      running = true;
    },
    get running() {
      return running;
    },
    async stop() {
      running = false;
      await Promise.all([scheduler.stop(), queue.stop()]);
      // Our runs are finished: leave, so nobody waits for our heartbeat to lapse.
      if (started) await proc.stop().catch((err) => log.warn({ err }, 'engine process: leaving failed'));
    },
  };
}
