import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { TeamRef } from './types.ts';

/** GET /teams?deleted_at=is.null&order=name.asc (seed 000 section 7): the Team tab of a rule's recipient. */
export function useTeams(enabled = true) {
  return useQuery({
    queryKey: ['notifications', 'teams'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('teams')
          .select('id,name')
          .is('deleted_at', null)
          .order('name', { ascending: true })
          .limit(1000)
          .abortSignal(signal),
      ) as TeamRef[],
  });
}
