import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { CATALOG_STALE_MS } from '../lib/constants.ts';
import { catalogKeys } from './keys.ts';

/** Distinct lists for the filters (seed 002 section 7.1): types, statuses, labels, change types, analyzers. */
function useValues<T>(what: string, table: string, select: string, order: string) {
  return useQuery({
    queryKey: catalogKeys.values(what),
    staleTime: CATALOG_STALE_MS,
    queryFn: async ({ signal }) =>
      unwrap(await db.from(table).select(select).order(order).limit(1000).abortSignal(signal)) as T[],
  });
}

export const useConfigTypes = () =>
  useValues<{ type: string; config_class: string }>('types', 'config_types', 'type,config_class', 'type');
export const useConfigStatuses = () => useValues<{ status: string }>('statuses', 'config_statuses', 'status', 'status');
export const useConfigLabels = () =>
  useValues<{ key: string; value: string }>('labels', 'config_labels', 'key,value', 'key');
export const useChangeTypes = () =>
  useValues<{ change_type: string }>('changeTypes', 'change_types', 'change_type', 'change_type');
export const useAnalyzers = () =>
  useValues<{ analyzer: string; analysis_type: string }>(
    'analyzers',
    'analyzers',
    'analyzer,analysis_type',
    'analyzer',
  );

/** The Agent filter's choices: live agents (seed 000, agent filters on the catalog). */
export const useAgents = () =>
  useQuery({
    queryKey: catalogKeys.values('agents'),
    staleTime: CATALOG_STALE_MS,
    queryFn: async ({ signal }) =>
      unwrap(
        await db.from('agents').select('id,name').is('deleted_at', null).order('name').limit(500).abortSignal(signal),
      ) as { id: string; name: string }[],
  });

/** Tag keys of live items: the Group By choices 'Tag: <key>' (seed 002 section 2.2, "plus any tag"). */
export function useConfigTagKeys() {
  const tags = useValues<{ key: string; value: string }>('tags', 'config_tags', 'key,value', 'key');
  return { ...tags, data: tags.data ? [...new Set(tags.data.map((t) => t.key))] : undefined };
}
