import { useQuery } from '@tanstack/react-query';
import { SETTINGS_LIST_LIMIT } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';
import { settingsListKey, type SettingsResourceConfig, type SettingsRow } from '#web/components/settings-form/index.ts';

/**
 * GET /{table_with_status}?select=*,created_by(...)&order=name&deleted_at=is.null&limit=100
 * (seed 000 section 7, "Generic settings").
 */
export function useSettingsList(c: SettingsResourceConfig) {
  return useQuery({
    queryKey: settingsListKey(c),
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
