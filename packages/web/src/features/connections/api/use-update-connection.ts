import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { type ConnectionRow, connectionsKey } from './use-connections.ts';
import type { ConnectionPayload } from './use-create-connection.ts';

/** PATCH /connections?id=eq.{id}; the list is refreshed afterwards. */
export function useUpdateConnection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, payload }: { id: string; payload: ConnectionPayload }) =>
      (unwrap(await db.from('connections').update(payload).eq('id', id).select('*')) as ConnectionRow[])[0],
    onSuccess: () => void qc.invalidateQueries({ queryKey: connectionsKey }),
  });
}
