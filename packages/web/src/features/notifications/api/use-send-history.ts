import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';
import type { SendHistoryRow } from './types.ts';

export interface SendHistoryQuery {
  pageIndex: number;
  pageSize: number;
  status?: string;
  resourceType?: string;
}

/** Everything but the body, which only the detail shows (a body can be long). */
const HISTORY_LIST_SELECT =
  'id,notification_id,notification_name,status,source_event,resource_type,resource_id,resource,person,person_id,team_id,error,duration_millis,count,first_observed,created_at,updated_at';

/**
 * The send-history list (seed 002 section 7.6: pageIndex, pageSize, status, resourceType): the
 * notification_send_history_summary view, newest first, paged on the server with its total.
 */
export function useSendHistory(q: SendHistoryQuery) {
  return useQuery({
    queryKey: [...notificationKeys.history, 'list', q],
    queryFn: async ({ signal }) => {
      let query = db.from('notification_send_history_summary').select(HISTORY_LIST_SELECT, { count: 'exact' });
      if (q.status) query = query.eq('status', q.status);
      if (q.resourceType) query = query.eq('resource_type', q.resourceType);
      const from = q.pageIndex * q.pageSize;
      const result = await query
        .order('created_at', { ascending: false })
        .range(from, from + q.pageSize - 1)
        .abortSignal(signal);
      return unwrapWithCount(result as never) as { rows: SendHistoryRow[]; total: number };
    },
    placeholderData: keepPreviousData,
  });
}
