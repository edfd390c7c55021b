import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** A check with its definition and canary, for the Spec tab and the Edit link. */
export interface CheckDetails {
  id: string;
  name: string;
  type: string;
  spec: Record<string, unknown> | null;
  canary_id: string;
  canary: { id: string; name: string; namespace: string | null; source: string | null; schedule: string | null } | null;
}

export function useCheckDetails(checkId: string | undefined) {
  return useQuery({
    queryKey: ['health', 'check', checkId],
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db
          .from('checks')
          .select('id,name,type,spec,canary_id,canary:canaries(id,name,namespace,source,schedule)')
          .eq('id', checkId!)
          .limit(1)
          .abortSignal(signal),
      ) as unknown as CheckDetails[];
      return rows[0] ?? null;
    },
    enabled: !!checkId,
  });
}
