import { useQuery } from '@tanstack/react-query';
import type { ComponentLogSource } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';

/** A component that declares log sources (seed 001 section 3 "Topology component (for logs)"). */
export interface LogComponent {
  id: string;
  name: string;
  icon: string | null;
  logs: ComponentLogSource[];
}

/** The component dropdown's choices: live components with log sources, by name. */
export function useLogComponents() {
  return useQuery({
    queryKey: ['logs', 'components'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db.from('components_with_logs').select('id,name,icon,logs').order('name').limit(1000).abortSignal(signal),
      ) as LogComponent[],
  });
}

/** One component by id ("Component log sources: fetch component by id"), for a link to a component not in the first 1000. */
export function useLogComponent(id: string | undefined) {
  return useQuery({
    queryKey: ['logs', 'component', id],
    queryFn: async ({ signal }) =>
      (
        unwrap(
          await db.from('components_with_logs').select('id,name,icon,logs').eq('id', id!).limit(1).abortSignal(signal),
        ) as LogComponent[]
      )[0] ?? null,
    enabled: !!id,
  });
}
