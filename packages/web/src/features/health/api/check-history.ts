import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import type { CheckStatus } from './types.ts';

/** The History tab's status filter: 1 healthy, 0 unhealthy (seed 000 section 7). */
export type HistoryStatusFilter = 'all' | 'healthy' | 'unhealthy';

export interface HistoryParams {
  checkId: string;
  /** ISO instant: only runs after it (the drawer's time range) */
  since: string;
  status: HistoryStatusFilter;
  /** minimum duration in ms */
  minDurationMs?: number;
  pageIndex: number;
  pageSize: number;
}

/**
 * GET /api/db/check_statuses?check_id=eq.{id}&time=gt.{window}&status=eq.1&duration=gte.{ms}
 *   &order=time.desc&limit&offset with Prefer: count=exact.
 */
async function fetchCheckHistory(p: HistoryParams, signal?: AbortSignal) {
  let q = db
    .from('check_statuses')
    .select('check_id,time,duration,status,message,error', { count: 'exact' })
    .eq('check_id', p.checkId)
    .gt('time', p.since);
  if (p.status !== 'all') q = q.eq('status', p.status === 'healthy' ? 1 : 0);
  if (p.minDurationMs !== undefined) q = q.gte('duration', p.minDurationMs);
  q = q.order('time', { ascending: false }).range(p.pageIndex * p.pageSize, (p.pageIndex + 1) * p.pageSize - 1);
  if (signal) q = q.abortSignal(signal);
  return unwrapWithCount<CheckStatus>(await q);
}

export function useCheckHistory(p: HistoryParams | undefined) {
  return useQuery({
    queryKey: ['health', 'history', p],
    queryFn: ({ signal }) => fetchCheckHistory(p!, signal),
    enabled: !!p,
    placeholderData: keepPreviousData,
  });
}
