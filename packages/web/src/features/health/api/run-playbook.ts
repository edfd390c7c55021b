import { useMutation } from '@tanstack/react-query';
import { apiPost } from '#web/lib/http.ts';

/** POST /api/playbook/run (seed 000 section 7): the run request; the reply holds run_id. */
export function useRunPlaybook() {
  return useMutation({
    mutationFn: (req: { id: string; check_id: string; params: Record<string, string> }) =>
      apiPost<{ run_id: string }>('/api/playbook/run', req),
  });
}
