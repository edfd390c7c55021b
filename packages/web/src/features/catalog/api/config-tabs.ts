import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { catalogKeys } from './keys.ts';

export interface ConfigPlaybookRun {
  id: string;
  status: string;
  created_at: string;
  start_time: string | null;
  end_time: string | null;
  playbooks: { id: string; name: string; title: string | null } | null;
}

/** Playbook runs on a config (the Playbooks tab), newest first, 50. */
export function useConfigPlaybookRuns(configId: string) {
  return useQuery({
    queryKey: [...catalogKeys.detail(configId), 'playbook_runs'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('playbook_runs')
          .select('id,status,created_at,start_time,end_time,playbooks(id,name,title)')
          .eq('config_id', configId)
          .order('created_at', { ascending: false })
          .limit(50)
          .abortSignal(signal),
      ) as unknown as ConfigPlaybookRun[],
  });
}

export interface ConfigCheck {
  id: string;
  name: string;
  type: string;
  status: string | null;
  canary_name: string;
  last_runtime: string | null;
}

/** The checks watching a config (the Checks tab): check_summary_for_config. */
export function useConfigChecks(configId: string) {
  return useQuery({
    queryKey: [...catalogKeys.detail(configId), 'checks'],
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('check_summary_for_config')
          .select('id,name,type,status,canary_name,last_runtime')
          .eq('config_id', configId)
          .order('name')
          .abortSignal(signal),
      ) as ConfigCheck[],
  });
}
