import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { triStateToFilter, type TriStateMap } from '@watchdeck/core';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import type { JobHistoryRow } from './job-history-table.tsx';

export interface JobHistoryQuery {
  resourceId?: string;
  name?: TriStateMap;
  resourceType?: TriStateMap;
  status?: TriStateMap;
  /** duration_millis greater or equal */
  minDurationMs?: number;
  /** created_at between */
  from?: Date;
  to?: Date;
  pageIndex: number;
  pageSize: number;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
}

const jobHistoryQueryKey = (q: JobHistoryQuery) => [
  'job_histories',
  { ...q, from: q.from?.toISOString(), to: q.to?.toISOString() },
];

/**
 * GET /job_histories (seed 002 section 7.4): select all; filters on resource_type, resource_id,
 * name, status; duration_millis >=; created_at between; order (default created_at desc);
 * limit/offset from pageIndex and pageSize; Prefer count=exact for the total.
 */
export function useJobHistory(q: JobHistoryQuery, opts: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: jobHistoryQueryKey(q),
    placeholderData: keepPreviousData,
    refetchInterval: opts.refetchInterval,
    queryFn: async ({ signal }) => {
      let req = db.from('job_histories').select('*', { count: 'exact' });
      if (q.resourceId) req = req.eq('resource_id', q.resourceId);
      const tri: [string, TriStateMap | undefined][] = [
        ['name', q.name],
        ['resource_type', q.resourceType],
        ['status', q.status],
      ];
      for (const [column, map] of tri) {
        const value = map && triStateToFilter(map);
        if (value) req = req.filter(column, 'filter', value);
      }
      if (q.minDurationMs) req = req.gte('duration_millis', q.minDurationMs);
      if (q.from) req = req.gte('created_at', q.from.toISOString());
      if (q.to) req = req.lte('created_at', q.to.toISOString());
      const offset = q.pageIndex * q.pageSize;
      const result = await req
        .order(q.sortBy, { ascending: q.sortOrder === 'asc' })
        .range(offset, offset + q.pageSize - 1)
        .abortSignal(signal);
      // Past the last page (filters narrowed the list) the engine answers 416: show it as empty.
      if (result.error && result.status === 416) return { rows: [] as JobHistoryRow[], total: 0 };
      return unwrapWithCount(result as never) as { rows: JobHistoryRow[]; total: number };
    },
  });
}
