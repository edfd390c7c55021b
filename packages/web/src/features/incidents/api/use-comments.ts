import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { Comment } from './types.ts';
import { PERSON } from './selects.ts';
import { incidentKey } from './incident-key.ts';

export function useComments(incidentId: string) {
  return useQuery({
    queryKey: [...incidentKey(incidentId), 'comments'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('comments')
          .select(`*,created_by(${PERSON})`)
          .eq('incident_id', incidentId)
          .order('created_at', { ascending: true })
          .limit(1000)
          .abortSignal(signal),
      ) as unknown as Comment[],
  });
}
