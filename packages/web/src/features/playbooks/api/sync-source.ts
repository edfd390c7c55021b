import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '#web/lib/http.ts';
import type { SourceSync } from './use-sources.ts';

/** POST /api/playbook/sources/{id}/sync: Sync now, answered with the sync's job. */
export function useSyncPlaybookSource() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      // a clone of a large repository may take a while
      apiPost<Pick<SourceSync, 'id' | 'status' | 'details'>>(`/playbook/sources/${id}/sync`, undefined, {
        timeoutMs: 120_000,
      }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['playbook_sources'] });
      void qc.invalidateQueries({ queryKey: ['playbooks'] });
    },
  });
}
