import { useQueryClient } from '@tanstack/react-query';
import { incidentKey } from './incident-key.ts';

/** Refreshes everything the incident page shows (and the lists). */
export function useRefreshIncident(incidentId: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: incidentKey(incidentId) });
    void qc.invalidateQueries({ queryKey: ['incidents', 'list'] });
  };
}
