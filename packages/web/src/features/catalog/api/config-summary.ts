import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { CATALOG_STALE_MS } from '../lib/constants.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigSummaryRow } from './types.ts';

/**
 * The catalog landing summary (seed 002 section 2.2): live items grouped by config_class and
 * type with health counts, open insights per type, 30-day changes and cost (the config_summary
 * view). Favourite types are sorted first by the caller.
 */
export function useConfigSummary(enabled = true) {
  return useQuery({
    queryKey: catalogKeys.summary('config_class,type'),
    enabled,
    staleTime: CATALOG_STALE_MS,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('config_summary')
          .select('config_class,type,count,health,analysis,changes,cost_total_1d,cost_total_30d')
          .order('type')
          .abortSignal(signal),
      ) as ConfigSummaryRow[],
  });
}
