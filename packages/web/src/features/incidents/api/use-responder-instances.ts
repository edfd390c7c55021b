import { useQuery } from '@tanstack/react-query';
import { apiGet } from '#web/lib/api.ts';

/** The ticket system instances (connections) a team responder of `type` can use. */
export function useResponderInstances(type: string | undefined, teamId: string | undefined) {
  return useQuery({
    queryKey: ['incidents', 'responder-instances', type, teamId],
    queryFn: ({ signal }) =>
      apiGet<{ instances: { id: string; name: string }[]; locked: boolean }>(
        `/api/incidents/responder-instances?${new URLSearchParams({ type: type!, team_id: teamId! })}`,
        signal,
      ),
    enabled: !!type && !!teamId,
  });
}
