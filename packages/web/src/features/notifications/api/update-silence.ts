import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { notificationKeys } from './keys.ts';
import type { SilencePayload } from './create-silence.ts';

/** PATCH /notification_silences?id=eq.{id} with updated_at now and the fields (seed 002 section 7.6). */
export function useUpdateSilence() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, payload }: { id: string; payload: SilencePayload }) => {
      unwrap(
        await db
          .from('notification_silences')
          .update({ ...payload, updated_at: new Date().toISOString() })
          .eq('id', id),
      );
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.silences }),
  });
}
