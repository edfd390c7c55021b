import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { isUuid } from '#web/lib/ids.ts';
import type { IncidentDetail } from './types.ts';
import { DETAIL_SELECT } from './selects.ts';
import { incidentKey } from './incident-key.ts';

export function useIncident(id: string) {
  return useQuery({
    queryKey: [...incidentKey(id), 'detail'],
    queryFn: async ({ signal }): Promise<IncidentDetail | null> => {
      // an id that cannot exist is not found, not a server error
      if (!isUuid(id)) return null;
      const rows = unwrap(
        await db
          .from('incidents')
          .select(DETAIL_SELECT)
          .eq('id', id)
          .order('created_at', { referencedTable: 'hypotheses', ascending: true })
          .order('created_at', { referencedTable: 'hypotheses.evidences', ascending: true })
          .abortSignal(signal),
      ) as unknown as IncidentDetail[];
      return rows[0] ?? null;
    },
  });
}
