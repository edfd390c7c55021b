import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigDetail } from './types.ts';

/**
 * One config with its body and the tab counts (config_detail), its scraper's name and agent.
 * null when there is no such config ('Details not found').
 */
export function useConfigDetail(id: string) {
  return useQuery({
    queryKey: catalogKeys.detail(id),
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db
          .from('config_detail')
          .select('*,config_scrapers(id,name),agent:agents(id,name)')
          .eq('id', id)
          .limit(1)
          .abortSignal(signal),
      ) as ConfigDetail[];
      return rows[0] ?? null;
    },
  });
}
