import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { connectionsKey } from './use-connections.ts';

/** Soft delete: PATCH deleted_at of /connections?id=eq.{id}; the list is refreshed afterwards. */
export function useDeleteConnection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      unwrap(await db.from('connections').update({ deleted_at: new Date().toISOString() }).eq('id', id));
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: connectionsKey }),
  });
}
