import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';

/** Silences are soft-deleted: PATCH deleted_at to now (seed 000 section 4). */
export function useDeleteSilence() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      unwrap(await db.from('notification_silences').update({ deleted_at: new Date().toISOString() }).eq('id', id));
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.silences }),
  });
}
