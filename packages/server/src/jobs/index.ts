import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { EventQueue } from './event-queue.ts';
import { Scheduler, pruneClaims } from './scheduler.ts';
import { markStaleRuns, pruneJobHistory, runJob } from './job-history.ts';

export { EventQueue, publishEvent, type QueuedEvent, type EventHandler, type HandlerOptions } from './event-queue.ts';
export { Scheduler, type JobSource, type ScheduledJob } from './scheduler.ts';
export { runJob, markStaleRuns } from './job-history.ts';

export interface EnginesOptions {
  workers: number;
  jobHistoryRetentionDays: number;
}

export interface Engines {
  scheduler: Scheduler;
  queue: EventQueue;
  /** Work an area does once when this process's engines start (before the scheduler runs). */
  onStart(fn: () => Promise<void>): void;
  stop(): Promise<void>;
}

/**
 * The background engines of one process: the scheduler and the event-queue workers, plus the
 * housekeeping jobs they need (job-history retention, claim pruning). Areas add their job
 * sources and event handlers before start() is called.
 */
export function createEngines(
  db: Db,
  log: FastifyBaseLogger,
  opts: EnginesOptions,
): Engines & { start(): Promise<void> } {
  const scheduler = new Scheduler(db, { onError: (err, key) => log.error({ err, job: key }, 'scheduled job failed') });
  const queue = new EventQueue(db, {
    onError: (err, event) => log.warn({ err, event: event?.name, eventId: event?.event_id }, 'event handler failed'),
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
    ],
  });

  const starters: (() => Promise<void>)[] = [];
  return {
    scheduler,
    queue,
    onStart: (fn) => void starters.push(fn),
    async start() {
      const stale = await markStaleRuns(db);
      if (stale) log.warn({ count: stale }, 'marked job runs left RUNNING by a previous process as STOPPED');
      for (const fn of starters) await fn();
      await scheduler.start();
      queue.start(opts.workers);
    },
    async stop() {
      await Promise.all([scheduler.stop(), queue.stop()]);
    },
  };
}
