import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';

/** Soft delete of a rule: PATCH deleted_at (seed 000 section 4); its send history stays. */
export function useDeleteRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      unwrap(await db.from('notifications').update({ deleted_at: new Date().toISOString() }).eq('id', id));
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.rules }),
  });
}
