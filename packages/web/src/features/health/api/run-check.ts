import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '#web/lib/http.ts';

/**
 * Run Now: POST /api/canary/run/check/{id}. The server runs the check and records the result;
 * afterwards every health query is refetched so the row, the drawer's stats, graph and history
 * show the new run.
 */
/** What Run Now answers: the run's outcome. */
export interface CheckRunResult {
  id: string;
  name: string;
  pass: boolean;
  status: 'healthy' | 'unhealthy';
  time: string;
  duration: number;
  message: string | null;
  error: string | null;
}

export function useRunCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (checkId: string) => apiPost<CheckRunResult>(`/api/canary/run/check/${encodeURIComponent(checkId)}`),
    // A run's outcome is awaited into the views (the button reads Running… until they show it);
    // after a failure they refresh in the background, so an offline click is done at once rather
    // than when the refetches give up.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['health'] }),
    onError: () => void queryClient.invalidateQueries({ queryKey: ['health'] }),
  });
}
