import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import type { RunRow } from './types.ts';

export interface RunsQuery {
  playbookId?: string;
  status?: string;
  checkId?: string;
  configId?: string;
  componentId?: string;
  /** created_at between */
  from?: Date;
  to?: Date;
  pageIndex: number;
  pageSize: number;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
}

/**
 * Runs, paged and sorted by the server (seed 002 section 7.7: pageIndex, pageSize, sort,
 * playbookId, status, starts, ends), from playbook_runs_summary with Prefer count=exact.
 */
export function useRuns(q: RunsQuery) {
  return useQuery({
    queryKey: ['playbook_runs', { ...q, from: q.from?.toISOString(), to: q.to?.toISOString() }],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      let req = db.from('playbook_runs_summary').select('*', { count: 'exact' });
      if (q.playbookId) req = req.eq('playbook_id', q.playbookId);
      if (q.status) req = req.eq('status', q.status);
      if (q.checkId) req = req.eq('check_id', q.checkId);
      if (q.configId) req = req.eq('config_id', q.configId);
      if (q.componentId) req = req.eq('component_id', q.componentId);
      if (q.from) req = req.gte('created_at', q.from.toISOString());
      if (q.to) req = req.lte('created_at', q.to.toISOString());
      const offset = q.pageIndex * q.pageSize;
      const result = await req
        .order(q.sortBy, { ascending: q.sortOrder === 'asc' })
        .range(offset, offset + q.pageSize - 1)
        .abortSignal(signal);
      // past the last page (a filter narrowed the list) the engine answers 416: an empty page
      if (result.error && result.status === 416) return { rows: [] as RunRow[], total: 0 };
      return unwrapWithCount(result as never) as { rows: RunRow[]; total: number };
    },
  });
}
