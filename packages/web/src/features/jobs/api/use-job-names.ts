import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** GET /job_history_names ordered by name ascending (the Job Name filter's options). */
export function useJobNames() {
  return useQuery({
    queryKey: ['job_history_names'],
    staleTime: 60_000,
    queryFn: async ({ signal }) =>
      unwrap(
        await db.from('job_history_names').select('name').order('name', { ascending: true }).abortSignal(signal),
      ) as {
        name: string;
      }[],
  });
}
