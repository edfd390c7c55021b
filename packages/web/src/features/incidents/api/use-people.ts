import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { PersonRef } from './types.ts';
import { STALE } from './lookup-stale.ts';

export interface PersonOption extends PersonRef {
  email: string | null;
}

export function usePeople() {
  return useQuery({
    queryKey: ['incidents', 'people'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('people')
          .select('id,name,avatar,email')
          .eq('type', 'person')
          .is('deleted_at', null)
          .order('name')
          .limit(1000)
          .abortSignal(signal),
      ) as PersonOption[],
    staleTime: STALE,
  });
}
