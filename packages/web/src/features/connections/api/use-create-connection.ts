import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { type ConnectionRow, connectionsKey } from './use-connections.ts';

export type ConnectionPayload = Record<string, unknown>;

/** POST /connections (with created_by); the list is refreshed afterwards. */
export function useCreateConnection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (payload: ConnectionPayload) =>
      (unwrap(await db.from('connections').insert(payload).select('*')) as ConnectionRow[])[0],
    onSuccess: () => void qc.invalidateQueries({ queryKey: connectionsKey }),
  });
}
