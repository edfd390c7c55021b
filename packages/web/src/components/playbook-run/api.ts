import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { apiGet, apiPost } from '#web/lib/http.ts';
import type { PlaybookParam, PlaybookResource, PlaybookSummary } from './types.ts';

const resourceQuery = (r: PlaybookResource) =>
  new URLSearchParams(Object.entries(r).filter((e): e is [string, string] => !!e[1])).toString();

/** GET /api/playbook/list?check_id|config_id|component_id: the playbooks a resource is offered. */
export function useApplicablePlaybooks(resource: PlaybookResource, enabled: boolean) {
  return useQuery({
    queryKey: ['playbook', 'list', resource],
    queryFn: ({ signal }) => apiGet<PlaybookSummary[]>(`/playbook/list?${resourceQuery(resource)}`, signal),
    enabled,
  });
}

/** POST /api/playbook/{id}/params: the parameters with their defaults resolved for the resource. */
export function usePlaybookParams(playbookId: string, resource: PlaybookResource | undefined) {
  return useQuery({
    queryKey: ['playbook', 'params', playbookId, resource],
    queryFn: ({ signal }) =>
      apiPost<{ params: PlaybookParam[] }>(`/playbook/${playbookId}/params`, resource, { signal }),
    enabled: !!resource && Object.values(resource).some(Boolean),
  });
}

export interface ResourceOption {
  id: string;
  name: string;
  type?: string | null;
  kind: 'check' | 'config' | 'component';
}

interface SearchAnswer {
  checks?: Omit<ResourceOption, 'kind'>[];
  configs?: Omit<ResourceOption, 'kind'>[];
  components?: Omit<ResourceOption, 'kind'>[];
}

/**
 * POST /api/playbook/resources/search: the checks, configs and components the given selectors
 * match, narrowed by a search text (seed 000 section 7: checks, components, configs, search, id).
 */
export function useResourceSearch(
  selectors: { checks?: unknown[]; configs?: unknown[]; components?: unknown[] },
  search: string,
  enabled: boolean,
) {
  return useQuery({
    queryKey: ['playbook', 'resources', selectors, search],
    placeholderData: keepPreviousData,
    enabled,
    queryFn: async ({ signal }) => {
      const body = { ...selectors, search: search || undefined, limit: 50 };
      const res = await apiPost<SearchAnswer>('/playbook/resources/search', body, { signal });
      return [
        ...(res.checks ?? []).map((r) => ({ ...r, kind: 'check' as const })),
        ...(res.configs ?? []).map((r) => ({ ...r, kind: 'config' as const })),
        ...(res.components ?? []).map((r) => ({ ...r, kind: 'component' as const })),
      ];
    },
  });
}

/** Teams and people for the team/people parameters (/api/db, names for the labels). */
export function usePickList(table: 'teams' | 'people', enabled: boolean) {
  return useQuery({
    queryKey: ['playbook', 'picklist', table],
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from(table)
          .select(table === 'people' ? 'id,name,email' : 'id,name')
          .is('deleted_at', null)
          .order('name')
          .limit(500)
          .abortSignal(signal),
      ) as unknown as { id: string; name: string; email?: string }[],
  });
}

export interface RunRequest extends PlaybookResource {
  id: string;
  params: Record<string, string>;
}

/** POST /api/playbook/run (seed 000 section 3: the run request); the reply holds run_id. */
export function useRunPlaybook() {
  return useMutation({
    mutationFn: (req: RunRequest) => apiPost<{ run_id: string }>('/playbook/run', req),
  });
}
