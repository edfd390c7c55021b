import { useQuery } from '@tanstack/react-query';
import { apiGet } from '#web/lib/http.ts';

/**
 * The JSON schema of a settings kind's spec, as the server validates it
 * (GET /api/schemas/<kind>.schema.json). Schemas change only with a release: cached for the session.
 */
export function useJsonSchema(kind: string | undefined) {
  return useQuery({
    queryKey: ['json-schema', kind],
    queryFn: ({ signal }) => apiGet<object>(`/schemas/${kind}.schema.json`, signal),
    enabled: !!kind,
    staleTime: Infinity,
  });
}
