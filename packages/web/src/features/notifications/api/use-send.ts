import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { isUuid } from '#web/lib/ids.ts';
import { notificationKeys } from './keys.ts';
import type { SendHistoryRow } from './types.ts';

/** One send with its body and error (the detail opened by ?id=); null when there is none. */
export function useSend(id: string | undefined) {
  return useQuery({
    queryKey: [...notificationKeys.history, 'detail', id],
    enabled: !!id,
    queryFn: async ({ signal }) => {
      // an id that is no uuid names nothing: 'No resources found' without asking the server
      if (!isUuid(id)) return null;
      const rows = unwrap(
        await db.from('notification_send_history_summary').select('*').eq('id', id!).limit(1).abortSignal(signal),
      ) as SendHistoryRow[];
      return rows[0] ?? null;
    },
  });
}
