import { useQuery } from '@tanstack/react-query';
import { isUuid } from '#web/lib/ids.ts';
import { db, unwrap } from '#web/lib/api.ts';
import { settingsItemKey, type SettingsResourceConfig, type SettingsRow } from '#web/components/settings-form/index.ts';

/** GET /{table}?id=eq.{id}; a deleted or unknown id is null ('No resources found'). */
export function useSettingsItem(c: SettingsResourceConfig, id: string) {
  return useQuery({
    queryKey: settingsItemKey(c, id),
    queryFn: async ({ signal }) => {
      if (!isUuid(id)) return null;
      const rows = unwrap(
        await db.from(c.table).select('*').eq('id', id).is('deleted_at', null).abortSignal(signal),
      ) as SettingsRow[];
      return rows[0] ?? null;
    },
  });
}
