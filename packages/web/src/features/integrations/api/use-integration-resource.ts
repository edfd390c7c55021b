import { useQuery } from '@tanstack/react-query';
import { isUuid } from '#web/lib/ids.ts';
import { db, unwrap } from '#web/lib/api.ts';
import type { IntegrationResource, IntegrationTable } from '../types.ts';
import { integrationsKey } from './use-integrations.ts';

/** GET /{table}?id=eq.{id} (not deleted); null when there is none. */
export function useIntegrationResource(table: IntegrationTable | undefined, id: string) {
  return useQuery({
    queryKey: [...integrationsKey, 'item', table, id],
    enabled: !!table,
    queryFn: async ({ signal }) => {
      if (!isUuid(id)) return null;
      const rows = unwrap(
        await db.from(table!).select('*').eq('id', id).is('deleted_at', null).abortSignal(signal),
      ) as IntegrationResource[];
      return rows[0] ?? null;
    },
  });
}
