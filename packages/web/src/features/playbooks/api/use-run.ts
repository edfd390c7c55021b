import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { RUN_FINAL, type Run, type RunAction } from './types.ts';

const RUN_SELECT =
  '*,playbook:playbook_id(id,name,title,icon,category,description,source,spec),' +
  'check:check_id(id,name,type),config:config_id(id,name,type),component:component_id(id,name,type),' +
  'creator:created_by(id,name,email)';

/** A run with its playbook, resource and creator; polled every 2 s until it is final (seed 002 section 4). */
export function useRun(id: string) {
  return useQuery({
    queryKey: ['playbook_run', id],
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db.from('playbook_runs').select(RUN_SELECT).eq('id', id).limit(1).abortSignal(signal),
      ) as unknown as Run[];
      return rows[0] ?? null;
    },
    refetchInterval: (q) => (q.state.data && RUN_FINAL.has(q.state.data.status) ? false : 2000),
  });
}

/**
 * The run's actions in the order they ran; refreshed with the run while it is not final, and read
 * once more when it turns final (the key changes): the last poll may predate the last action.
 */
export function useRunActions(runId: string, runStatus: string | undefined) {
  const final = !!runStatus && RUN_FINAL.has(runStatus);
  return useQuery({
    queryKey: ['playbook_run_actions', runId, final],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('playbook_run_actions')
          .select('id,name,status,start_time,end_time,scheduled_time,playbook_run_id,error')
          .eq('playbook_run_id', runId)
          .order('scheduled_time')
          .order('start_time', { nullsFirst: false })
          .limit(500)
          .abortSignal(signal),
      ) as unknown as RunAction[],
    enabled: !!runStatus,
    refetchInterval: final ? false : 2000,
  });
}
