import type { Queryable } from '../db/index.ts';

/** The event bus's backlog per event name and consumer, as metrics read it on every scrape. */
export interface EventBusStat {
  event: string;
  consumer: string;
  /** waiting or running deliveries */
  backlog: number;
  /** deliveries that failed at least once and wait for another attempt */
  retrying: number;
  /** dead letters: every attempt failed */
  failed: number;
  /** attempts made on the deliveries not done yet (backlog and dead letters) */
  attempts: number;
  /** age of the oldest waiting delivery, seconds (0 with no backlog) */
  oldestSeconds: number;
}

/**
 * One statement over the deliveries that are not done (done ones are kept an hour and are not
 * backlog); bounded by event names x consumers, both fixed in code.
 */
export async function eventBusStats(db: Queryable): Promise<EventBusStat[]> {
  const { rows } = await db.query<EventBusStat>(
    `SELECT e.name AS event, d.consumer,
       count(*) FILTER (WHERE d.status IN ('pending', 'running'))::int AS backlog,
       count(*) FILTER (WHERE d.status = 'pending' AND d.attempts > 0)::int AS retrying,
       count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
       coalesce(sum(d.attempts), 0)::int AS attempts,
       coalesce(extract(epoch FROM clock_timestamp() - min(e.created_at) FILTER (WHERE d.status IN ('pending', 'running'))), 0)::float8 AS "oldestSeconds"
     FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
     WHERE d.status <> 'done'
     GROUP BY e.name, d.consumer`,
  );
  return rows;
}
