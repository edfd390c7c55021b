import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';

/** The fields a silence form writes; exactly one resource id is set, the others are null. */
export interface SilencePayload {
  description: string | null;
  from: string;
  until: string;
  recursive: boolean;
  canary_id: string | null;
  check_id: string | null;
  component_id: string | null;
  config_id: string | null;
}

/** POST /notification_silences (seed 002 section 7.6: silences create); source UI. */
export function useCreateSilence() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (payload: SilencePayload) => {
      unwrap(await db.from('notification_silences').insert({ ...payload, source: 'UI' }));
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.silences }),
  });
}
