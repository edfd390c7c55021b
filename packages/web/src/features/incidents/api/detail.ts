import { useQuery, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '../../../lib/api.ts';
import { isUuid } from '../../../lib/ids.ts';
import type { Comment, HistoryEntry, IncidentDetail, Responder } from './types.ts';
import { DETAIL_SELECT, HISTORY_SELECT, PERSON, RESPONDER_SELECT } from './selects.ts';

/**
 * The incident detail page's reads. The incident with its whole hypothesis tree and every
 * evidence (with the resource each points at) is one request; comments, responders and the
 * changelog are their own calls (seed 001 section 7), each refreshed after the writes that
 * change them. Every key starts with ['incident', id] so one invalidation refreshes the page.
 */

export const incidentKey = (id: string) => ['incident', id] as const;


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
    refetchInterval: (query) => ((query.state.data as Responder[] | undefined)?.some((r) => r.dispatch_status === 'pending') ? 3000 : false),
  });
}

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

/** Refreshes everything the incident page shows (and the lists). */
export function useRefreshIncident(incidentId: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: incidentKey(incidentId) });
    void qc.invalidateQueries({ queryKey: ['incidents', 'list'] });
  };
}
