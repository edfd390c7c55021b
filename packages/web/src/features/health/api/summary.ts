import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { summaryRows, type CheckSummary } from './types.ts';
import type { HealthTimeRange } from '../lib/time-ranges.ts';
import { fetchSummary, summaryUrl, type SummaryParams } from './preload.ts';

export { type SummaryParams } from './preload.ts';

/**
 * GET /api/canary/api/summary: the checks_summary feed, filtered by time range (`start`, a
 * duration back from now such as '1h'). `labels` is the tri-state label filter in the server's
 * form (exclusions prefixed with '!').
 *
 * react-query hands the query function an AbortSignal and apiGet passes it to fetch, so a
 * previous request is aborted when a new one starts (seed 000): a new time range or label filter
 * is a new key and the query left behind loses its last observer, which cancels its fetch. The
 * first call of a page load may already be on its way (preload.ts), and callers of one URL share
 * the call in flight (preload.ts fetchSummary): the same summary is never sent twice at once, so
 * a manual refresh or a remount while it is in flight waits for that call.
 */
const summaryQuery = (params: SummaryParams, refetchInterval = 0) =>
  queryOptions({
    queryKey: ['health', 'summary', params.timeRange, params.labels ?? '', params.checkId ?? ''],
    queryFn: async ({ signal }): Promise<CheckSummary[]> => {
      return summaryRows(await fetchSummary(summaryUrl(params), signal));
    },
    refetchInterval: refetchInterval || false,
    // Keep showing the last answer while a new range loads instead of flashing an empty table.
    placeholderData: keepPreviousData,
  });

export function useChecksSummary(params: SummaryParams, refetchInterval = 0) {
  return useQuery(summaryQuery(params, refetchInterval));
}

/** One check's summary (uptime and latency) over the drawer's own range. */
export function useCheckSummary(checkId: string | undefined, timeRange: HealthTimeRange) {
  return useQuery({
    ...summaryQuery({ timeRange, checkId: checkId ?? '' }),
    enabled: !!checkId,
    select: (rows: CheckSummary[]) => rows.find((r) => r.id === checkId) ?? null,
  });
}
