import { useQuery } from '@tanstack/react-query';
import { SETTINGS_LIST_LIMIT } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';

/** A row of the connections table as /api/db returns it: password and certificate come masked. */
export interface ConnectionRow {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean;
  properties: Record<string, string | number | boolean> | null;
  source: string | null;
  created_at: string;
  updated_at: string | null;
  created_by: { id: string; name: string; avatar?: string | null } | null;
}

export const connectionsKey = ['connections', 'list'] as const;

/**
 * GET /connections?select=*,created_by(...)&deleted_at=is.null&order=name&limit=100 (seed 000
 * section 7: connections use the plain table).
 */
export function useConnections() {
  return useQuery({
    queryKey: connectionsKey,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('connections')
          .select('*,created_by(id,name,avatar)')
          .is('deleted_at', null)
          .order('name', { ascending: true })
          .limit(SETTINGS_LIST_LIMIT)
          .abortSignal(signal),
      ) as ConnectionRow[],
  });
}
