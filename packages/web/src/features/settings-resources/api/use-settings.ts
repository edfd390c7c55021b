import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SETTINGS_LIST_LIMIT } from '@watchdeck/core';
import { isUuid } from '../../../lib/ids.ts';
import { db, unwrap } from '../../../lib/api.ts';
import type { SettingsResourceConfig } from '../resources.ts';
import type { SettingsRow } from './types.ts';

const listKey = (c: SettingsResourceConfig) => ['settings', c.table, 'list'];
const itemKey = (c: SettingsResourceConfig, id: string) => ['settings', c.table, 'item', id];

/**
 * GET /{table_with_status}?select=*,created_by(...)&order=name&deleted_at=is.null&limit=100
 * (seed 000 section 7, "Generic settings").
 */
export function useSettingsList(c: SettingsResourceConfig) {
  return useQuery({
    queryKey: listKey(c),
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from(c.listFrom)
          .select('*,created_by(id,name,avatar)')
          .is('deleted_at', null)
          .order('name', { ascending: true })
          .limit(SETTINGS_LIST_LIMIT)
          .abortSignal(signal),
      ) as SettingsRow[],
  });
}

/** GET /{table}?id=eq.{id}; a deleted or unknown id is null ('No resources found'). */
export function useSettingsItem(c: SettingsResourceConfig, id: string) {
  return useQuery({
    queryKey: itemKey(c, id),
    queryFn: async ({ signal }) => {
      if (!isUuid(id)) return null;
      const rows = unwrap(
        await db.from(c.table).select('*').eq('id', id).is('deleted_at', null).abortSignal(signal),
      ) as SettingsRow[];
      return rows[0] ?? null;
    },
  });
}

export type SettingsPayload = Record<string, unknown>;

/** POST /{table} (source 'UI', created_by the caller), PATCH by id, soft delete by PATCH of deleted_at. */
export function useSettingsMutations(c: SettingsResourceConfig) {
  const qc = useQueryClient();
  const done = (id?: string) => {
    void qc.invalidateQueries({ queryKey: listKey(c) });
    if (id) void qc.invalidateQueries({ queryKey: itemKey(c, id) });
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
