import { useQuery } from '@tanstack/react-query';
import { NOTIFICATION_CONNECTION_TYPES } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';

export interface NotificationConnection {
  id: string;
  name: string;
  namespace: string;
  type: string;
}

/**
 * The connections of a notification type (slack, email, generic_webhook, ...): the Others tab
 * of a rule's recipient. Only those who may read connections get them (editor and admin).
 */
export function useNotificationConnections(enabled = true) {
  return useQuery({
    queryKey: ['notifications', 'connections'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('connections')
          .select('id,name,namespace,type')
          .is('deleted_at', null)
          .in('type', [...NOTIFICATION_CONNECTION_TYPES])
          .order('name', { ascending: true })
          .limit(1000)
          .abortSignal(signal),
      ) as NotificationConnection[],
  });
}
