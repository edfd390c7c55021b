import { useQuery } from '@tanstack/react-query';
import { apiGet } from '#web/lib/http.ts';

/** GET /api/playbook/schema.json: the JSON schema the server validates specs with. */
export function usePlaybookSchema() {
  return useQuery({
    queryKey: ['playbook', 'schema'],
    queryFn: ({ signal }) => apiGet<object>('/playbook/schema.json', signal),
    staleTime: Infinity,
  });
}
