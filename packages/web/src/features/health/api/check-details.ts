import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '../../../lib/api.ts';

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

/** Relationships tab: the configs and components a check watches (seed 000: Name, Type). */
export interface CheckRelationship {
  id: string;
  name: string;
  /** 'config' or 'component' */
  type: 'config' | 'component';
  kind: string | null;
  status: string | null;
}

export function useCheckRelationships(checkId: string | undefined) {
  return useQuery({
    queryKey: ['health', 'relationships', checkId],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('check_relationships')
          .select('id,name,type,kind,status')
          .eq('check_id', checkId!)
          .is('deleted_at', null)
          .order('name')
          .limit(500)
          .abortSignal(signal),
      ) as CheckRelationship[],
    enabled: !!checkId,
  });
}
