import { useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

/** Agent lookups are cached for 5 minutes (seed 000 section 9). */
const AGENT_LOOKUP_STALE_MS = 300_000;

/**
 * Names of the agents the checks ran on (GET /api/db/agents?id=in.(...)), for the agent badge and
 * the Agent tabs. The ids are sorted so the same set is one cache entry.
 */
export function useAgentNames(ids: readonly string[]) {
  const key = [...new Set(ids)].sort();
  return useQuery({
    queryKey: ['health', 'agents', key],
    queryFn: async ({ signal }) => {
      const rows = unwrap(await db.from('agents').select('id,name').in('id', key).abortSignal(signal)) as {
        id: string;
        name: string;
      }[];
      return Object.fromEntries(rows.map((r) => [r.id, r.name])) as Record<string, string>;
    },
    enabled: key.length > 0,
    staleTime: AGENT_LOOKUP_STALE_MS,
  });
}
