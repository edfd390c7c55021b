import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/**
 * A row of event_queue_summary (seed 002 section 3 "Event queue summary"): the backlog of one
 * event name for one of its consumers (server jobs/README.md).
 */
export interface EventQueueSummaryRow {
  name: string;
  consumer: string;
  pending: number;
  failed: number;
  average_attempts: number | null;
  first_failure: string | null;
  last_failure: string | null;
  most_common_error: string | null;
}

/** One row per event name and consumer; a few dozen at most. */
const LIMIT = 500;

/** GET event_queue_summary?order=last_failure.desc (seed 000 section 7). */
export function useEventQueueSummary() {
  return useQuery({
    queryKey: ['event-queue', 'summary'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('event_queue_summary')
          .select('*')
          .order('last_failure', { ascending: false })
          .limit(LIMIT)
          .abortSignal(signal),
      ) as EventQueueSummaryRow[],
  });
}
