import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';

/** DELETE /api/playbook/sources/{id}: the source and its playbooks (soft). */
export function useDeletePlaybookSource() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`/playbook/sources/${id}`, { method: 'DELETE' }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['playbook_sources'] });
      void qc.invalidateQueries({ queryKey: ['playbooks'] });
    },
  });
}
