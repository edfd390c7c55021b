import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { EventQueue } from './event-queue.ts';
import { Scheduler, pruneClaims } from './scheduler.ts';
import { markStaleRuns, pruneJobHistory, runJob } from './job-history.ts';

export {
  EventQueue,
  publish,
  type ConsumedEvent,
  type ConsumerHandler,
  type ConsumerOptions,
  type DeliveryContext,
} from './event-queue.ts';
export { Scheduler, type JobSource, type ScheduledJob } from './scheduler.ts';
export { runJob, markStaleRuns } from './job-history.ts';

export interface EnginesOptions {
  workers: number;
  jobHistoryRetentionDays: number;
}

export interface Engines {
  scheduler: Scheduler;
  queue: EventQueue;
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
  const scheduler = new Scheduler(db, { onError: (err, key) => log.error({ err, job: key }, 'scheduled job failed') });
  const queue = new EventQueue(db, {
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
    ],
  });

  return {
    scheduler,
    queue,
    async start() {
      const stale = await markStaleRuns(db);
      if (stale) log.warn({ count: stale }, 'marked job runs left RUNNING by a previous process as STOPPED');
      // consumers first: the scheduled runs publish events they must receive
      await queue.start(opts.workers);
      await scheduler.start();
    },
    async stop() {
      await Promise.all([scheduler.stop(), queue.stop()]);
    },
  };
}
