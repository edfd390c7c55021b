import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { TeamRef } from './types.ts';
import { STALE } from './lookup-stale.ts';

export function useTeams() {
  return useQuery({
    queryKey: ['incidents', 'teams'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('teams')
          .select('id,name,icon,spec')
          .is('deleted_at', null)
          .order('name')
          .limit(500)
          .abortSignal(signal),
      ) as TeamRef[],
    staleTime: STALE,
  });
}
