import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '../../../lib/api.ts';
import type { IncidentDetail } from './types.ts';
import { DETAIL_SELECT } from './selects.ts';
import { incidentKey } from './incident-key.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function useIncident(id: string) {
  return useQuery({
    queryKey: [...incidentKey(id), 'detail'],
    queryFn: async ({ signal }): Promise<IncidentDetail | null> => {
      // an id that cannot exist is not found, not a server error
      if (!UUID.test(id)) return null;
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
