import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigLink, RelatedConfig } from './types.ts';

export interface RelationsQuery {
  configId: string;
  /** all, incoming or outgoing */
  direction: 'all' | 'incoming' | 'outgoing';
  /** soft: also follow relationships, not only the parent/child tree (mode 'both' vs 'hard') */
  soft: boolean;
  hideDeleted: boolean;
}

/**
 * Relations for the graph and table (seed 002 section 7.1): related_configs(config_id,
 * direction, include_soft, include_deleted), plus the direct links touching any of them so the
 * graph draws real edges and knows which are manual (selector_id 'manual').
 */
export function useRelations(p: RelationsQuery) {
  return useQuery({
    queryKey: catalogKeys.relationships(p),
    queryFn: async ({ signal }) => {
      const related = unwrap(
        await db
          .rpc('related_configs', {
            config_id: p.configId,
            direction: p.direction,
            include_soft: p.soft,
            include_deleted: !p.hideDeleted,
          })
          .abortSignal(signal),
      ) as RelatedConfig[];
      const ids = [p.configId, ...related.map((r) => r.id)];
      // the edges among these items: parent links and config_relationships rows
      const [parents, links] = await Promise.all([
        db.from('config_items').select('id,parent_id').in('id', ids).abortSignal(signal),
        db
          .from('config_relationships')
          .select('config_id,related_id,relation,selector_id')
          .in('config_id', ids)
          .in('related_id', ids)
          .is('deleted_at', null)
          .abortSignal(signal),
      ]);
      const parentRows = unwrap(parents) as { id: string; parent_id: string | null }[];
      const edges: ConfigLink[] = [];
      const idSet = new Set(ids);
      for (const r of parentRows)
        if (r.parent_id && idSet.has(r.parent_id))
          edges.push({ config_id: r.parent_id, related_id: r.id, relation: 'parent', selector_id: '' });
      if (p.soft) edges.push(...(unwrap(links) as ConfigLink[]));
      return { related, edges };
    },
  });
}

/** Removes a manual link (selector 'manual'): 'Deleted config link successfully'. */
export async function unlinkConfigs(link: Pick<ConfigLink, 'config_id' | 'related_id'>): Promise<void> {
  unwrap(
    await db
      .from('config_relationships')
      .delete()
      .eq('config_id', link.config_id)
      .eq('related_id', link.related_id)
      .eq('selector_id', 'manual'),
  );
}
