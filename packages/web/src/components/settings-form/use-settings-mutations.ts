import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { SettingsResourceConfig, SettingsRow } from './types.ts';

/** The query keys of a kind's list and of one row (features/settings-resources reads them). */
export const settingsListKey = (c: SettingsResourceConfig) => ['settings', c.table, 'list'];
export const settingsItemKey = (c: SettingsResourceConfig, id: string) => ['settings', c.table, 'item', id];

export type SettingsPayload = Record<string, unknown>;

/** POST /{table} (source 'UI', created_by the caller), PATCH by id, soft delete by PATCH of deleted_at. */
export function useSettingsMutations(c: SettingsResourceConfig) {
  const qc = useQueryClient();
  const done = (id?: string) => {
    void qc.invalidateQueries({ queryKey: settingsListKey(c) });
    if (id) void qc.invalidateQueries({ queryKey: settingsItemKey(c, id) });
  };
  const create = useMutation({
    mutationFn: async (payload: SettingsPayload & { created_by?: string }) =>
      (
        unwrap(
          await db
            .from(c.table)
            .insert({ ...payload, source: 'UI' })
            .select('*'),
        ) as SettingsRow[]
      )[0],
    onSuccess: (row) => done(row?.id),
  });
  const update = useMutation({
    mutationFn: async ({ id, payload }: { id: string; payload: SettingsPayload }) =>
      (unwrap(await db.from(c.table).update(payload).eq('id', id).select('*')) as SettingsRow[])[0],
    onSuccess: (_r, v) => done(v.id),
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      unwrap(await db.from(c.table).update({ deleted_at: new Date().toISOString() }).eq('id', id));
    },
    onSuccess: (_r, id) => done(id),
  });
  return { create, update, remove };
}
