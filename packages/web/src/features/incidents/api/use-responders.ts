import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { Responder } from './types.ts';
import { RESPONDER_SELECT } from './selects.ts';
import { incidentKey } from './incident-key.ts';

export function useResponders(incidentId: string) {
  return useQuery({
    queryKey: [...incidentKey(incidentId), 'responders'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('responders')
          .select(RESPONDER_SELECT)
          .eq('incident_id', incidentId)
          .is('deleted_at', null)
          .order('created_at', { ascending: true })
          .abortSignal(signal),
      ) as unknown as Responder[],
    // a team responder's ticket is created in the background: look again until it settles
    refetchInterval: (query) =>
      (query.state.data as Responder[] | undefined)?.some((r) => r.dispatch_status === 'pending') ? 3000 : false,
  });
}
