import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';
import type { CustomService } from './types.ts';

export interface RulePayload {
  title: string;
  events: string[];
  filter: string | null;
  template: string | null;
  repeat_interval: string | null;
  properties: Record<string, unknown> | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
}

/**
 * Create (POST, source UI) or update (PATCH by id) a rule on the notifications table (seed 002
 * section 7.6): the recipient fields that do not apply are sent as null, so switching a rule from
 * a team to a person clears the team.
 */
export function useSaveRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, payload }: { id?: string; payload: RulePayload }) => {
      if (id) unwrap(await db.from('notifications').update(payload).eq('id', id));
      else unwrap(await db.from('notifications').insert({ ...payload, source: 'UI' }));
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.rules }),
  });
}
