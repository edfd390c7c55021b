import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { HistoryEntry } from './types.ts';
import { HISTORY_SELECT } from './selects.ts';
import { incidentKey } from './incident-key.ts';

export function useHistory(incidentId: string) {
  return useQuery({
    queryKey: [...incidentKey(incidentId), 'history'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('incident_histories')
          .select(HISTORY_SELECT)
          .eq('incident_id', incidentId)
          .order('created_at', { ascending: false })
          .limit(200)
          .abortSignal(signal),
      ) as unknown as HistoryEntry[],
  });
}
