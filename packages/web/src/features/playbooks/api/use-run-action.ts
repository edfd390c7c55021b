import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { ACTION_FINAL, type RunActionDetail } from './types.ts';

/** One action with its result; polled every 1 s until completed or failed (seed 002 section 4). */
export function useRunAction(id: string | undefined) {
  return useQuery({
    queryKey: ['playbook_run_action', id],
    enabled: !!id,
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db.from('playbook_run_actions').select('*').eq('id', id!).limit(1).abortSignal(signal),
      ) as unknown as RunActionDetail[];
      return rows[0] ?? null;
    },
    refetchInterval: (q) => (q.state.data && ACTION_FINAL.has(q.state.data.status) ? false : 1000),
  });
}
