import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

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
