import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '#web/lib/http.ts';

type Command = 'rerun' | 'cancel' | 'approve';

/**
 * POST /api/playbook/run/{id}/rerun | cancel | approve. Re-run answers with the new run's id;
 * the server decides who may approve (the approvers the spec names).
 */
export function useRunCommand(command: Command) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => apiPost<{ run_id?: string }>(`/playbook/run/${runId}/${command}`),
    onSettled: (_d, _e, runId) => qc.invalidateQueries({ queryKey: ['playbook_run', runId] }),
  });
}
