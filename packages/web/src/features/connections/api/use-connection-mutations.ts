import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '../../../lib/api.ts';
import { type ConnectionRow, connectionsKey } from './use-connections.ts';

export type ConnectionPayload = Record<string, unknown>;

/** Create (with created_by), update by id, soft delete (deleted_at) on the connections table. */
export function useConnectionMutations() {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: connectionsKey });
  const create = useMutation({
    mutationFn: async (payload: ConnectionPayload) =>
      (unwrap(await db.from('connections').insert(payload).select('*')) as ConnectionRow[])[0],
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: async ({ id, payload }: { id: string; payload: ConnectionPayload }) =>
      (unwrap(await db.from('connections').update(payload).eq('id', id).select('*')) as ConnectionRow[])[0],
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      unwrap(await db.from('connections').update({ deleted_at: new Date().toISOString() }).eq('id', id));
    },
    onSuccess: refresh,
  });
  return { create, update, remove };
}
