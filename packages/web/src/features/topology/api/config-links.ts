import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** The link-to-catalog picker's choices: live config items whose name matches. */
export function useConfigSearch(search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['topology', 'config-search', search],
    enabled,
    queryFn: async ({ signal }) => {
      let q = db.from('config_items').select('id,name,type').is('deleted_at', null);
      // '*' is the like wildcard of the /api/db language; the person's own '*' and ',' stay literal
      const text = search.trim().replace(/[*,()]/g, ' ');
      if (text) q = q.ilike('name', `*${text}*`);
      return unwrap(await q.order('name').limit(50).abortSignal(signal)) as {
        id: string;
        name: string;
        type: string | null;
      }[];
    },
  });
}

/** A link a person makes between a component and a config item (selector_id 'manual'). */
export function useLinkConfig(componentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (configId: string) =>
      unwrap(
        await db
          .from('config_component_relationships')
          .upsert(
            { component_id: componentId, config_id: configId, selector_id: 'manual', deleted_at: null },
            { onConflict: 'component_id,config_id,selector_id' },
          ),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['topology', 'panel', 'configs', componentId] }),
  });
}

/** Removes a manual link (only those can be unlinked). */
export function useUnlinkConfig(componentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (configId: string) =>
      unwrap(
        await db
          .from('config_component_relationships')
          .delete()
          .eq('component_id', componentId)
          .eq('config_id', configId)
          .eq('selector_id', 'manual'),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['topology', 'panel', 'configs', componentId] }),
  });
}
