import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** The Labels filter's choices: distinct key/value pairs of live components. */
export function useComponentLabels() {
  return useQuery({
    queryKey: ['topology', 'labels'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('component_labels')
          .select('key,value')
          .order('key')
          .order('value')
          .limit(500)
          .abortSignal(signal),
      ) as { key: string; value: string }[],
    staleTime: 60_000,
  });
}

/** The Agent filter's choices. */
export function useAgents() {
  return useQuery({
    queryKey: ['topology', 'agents'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db.from('agents').select('id,name').is('deleted_at', null).order('name').limit(500).abortSignal(signal),
      ) as { id: string; name: string }[],
    staleTime: 60_000,
  });
}

export interface ComponentName {
  id: string;
  name: string;
  title: string | null;
  type: string | null;
  icon: string | null;
  status: string;
  path: string;
}

/** One live component by id (breadcrumb and sidebar fallback when the listing filters it out). */
export function useComponentName(id: string | undefined) {
  return useQuery({
    queryKey: ['topology', 'name', id],
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (
        unwrap(
          await db
            .from('component_names')
            .select('id,name,title,type,icon,status,path')
            .eq('id', id!)
            .limit(1)
            .abortSignal(signal),
        ) as ComponentName[]
      )[0] ?? null,
    staleTime: 30_000,
  });
}

/** Names of the breadcrumb's ancestors, in the order given. */
export function useComponentNames(ids: readonly string[]) {
  return useQuery({
    queryKey: ['topology', 'names', ids],
    enabled: ids.length > 0,
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db
          .from('component_names')
          .select('id,name,title,type,icon,status,path')
          .in('id', [...ids])
          .limit(ids.length)
          .abortSignal(signal),
      ) as ComponentName[];
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)).filter((r): r is ComponentName => !!r);
    },
    staleTime: 60_000,
  });
}
