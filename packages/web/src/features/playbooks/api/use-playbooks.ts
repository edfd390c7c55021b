import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import type { Playbook } from './types.ts';

/** The live playbooks, by title (the cards of /playbooks and the run list's Playbook filter). */
export function usePlaybooks() {
  return useQuery({
    queryKey: ['playbooks'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('playbooks')
          .select('id,name,title,icon,category,description,source,source_path,spec,created_at,updated_at')
          .is('deleted_at', null)
          .order('title')
          .limit(1000)
          .abortSignal(signal),
      ) as unknown as Playbook[],
  });
}
