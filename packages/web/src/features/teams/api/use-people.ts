import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { Person } from './team-members.ts';

/** Everyone the picker can offer; people are few enough to filter in the browser. */
const PEOPLE_LIMIT = 1000;

export function usePeople(enabled: boolean) {
  return useQuery({
    queryKey: ['people', 'pickable'],
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('people')
          .select('id,name,email,avatar')
          .eq('type', 'person')
          .is('deleted_at', null)
          .order('name')
          .limit(PEOPLE_LIMIT)
          .abortSignal(signal),
      ) as Person[],
  });
}
