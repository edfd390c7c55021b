import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { PersonRef } from './types.ts';

/** GET /people?order=name.asc: the Person tab of a rule's recipient (their email is where it goes). */
export function usePeople(enabled = true) {
  return useQuery({
    queryKey: ['notifications', 'people'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('people')
          .select('id,name,email,avatar')
          .is('deleted_at', null)
          .order('name', { ascending: true })
          .limit(1000)
          .abortSignal(signal),
      ) as PersonRef[],
  });
}
