import { useQuery } from '@tanstack/react-query';
import { SETTINGS_LIST_LIMIT } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';
import type { RuleRow } from './types.ts';

const RULE_SELECT = '*,person:person_id(id,name,avatar,email),team:team_id(id,name),created_by(id,name,avatar)';

/**
 * The rules with their send counters (notifications_summary: pending, failed, sent, average
 * duration, most common error), not deleted, newest first. Rules are few (settings resources:
 * limit 100, seed 000 section 9).
 */
export function useRules() {
  return useQuery({
    queryKey: [...notificationKeys.rules, 'list'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('notifications_summary')
          .select(RULE_SELECT)
          .is('deleted_at', null)
          .order('created_at', { ascending: false })
          .limit(SETTINGS_LIST_LIMIT)
          .abortSignal(signal),
      ) as RuleRow[],
  });
}
