import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** Soft delete (seed 000 section 4): deleted_at is set to now. */
export function useDeletePlaybook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      unwrap(await db.from('playbooks').update({ deleted_at: new Date().toISOString() }).eq('id', id).select('id'));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['playbooks'] }),
  });
}
