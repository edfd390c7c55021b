import { useQuery } from '@tanstack/react-query';
import { SETTINGS_LIST_LIMIT } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';
import type { SilenceRow } from './types.ts';

const SILENCE_SELECT =
  '*,created_by(id,name,avatar),canary:canary_id(id,name),check:check_id(id,name),component:component_id(id,name),config:config_id(id,name,type)';

/** The silences that are not deleted, the latest ending first, with the resource each one names. */
export function useSilences() {
  return useQuery({
    queryKey: [...notificationKeys.silences, 'list'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('notification_silences')
          .select(SILENCE_SELECT)
          .is('deleted_at', null)
          .order('until', { ascending: false })
          .limit(SETTINGS_LIST_LIMIT)
          .abortSignal(signal),
      ) as SilenceRow[],
  });
}
