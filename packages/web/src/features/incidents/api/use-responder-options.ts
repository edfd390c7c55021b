import { useQuery } from '@tanstack/react-query';
import { apiGet } from '#web/lib/api.ts';

/** Live options of a ticket field (projects, issue types, priorities, plans, buckets). */
export function useResponderOptions(
  params: { connectionId?: string; field: string; project?: string; plan?: string; q?: string },
  enabled: boolean,
) {
  const search = new URLSearchParams({ connection_id: params.connectionId ?? '', field: params.field });
  if (params.project) search.set('project', params.project);
  if (params.plan) search.set('plan', params.plan);
  if (params.q) search.set('q', params.q);
  return useQuery({
    queryKey: ['incidents', 'responder-options', search.toString()],
    queryFn: ({ signal }) =>
      apiGet<{ options: { value: string; label: string }[] }>(`/api/incidents/responder-options?${search}`, signal),
    enabled: enabled && !!params.connectionId,
    staleTime: 60_000,
  });
}
