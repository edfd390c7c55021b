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
  kind: ResourceKind;
}

interface SearchAnswer {
  checks?: Omit<ResourceOption, 'kind'>[];
  configs?: Omit<ResourceOption, 'kind'>[];
  components?: Omit<ResourceOption, 'kind'>[];
}

type ResourceKind = 'check' | 'config' | 'component';

/** What the resource search looks in: the kinds a playbook runs on (its selectors apply), or given kinds. */
export interface ResourceScope {
  playbook_id?: string;
  kinds?: ResourceKind[];
  /** narrows a component/config/check parameter's choices (its properties.filter.types) */
  types?: string[];
}

/**
 * POST /api/playbook/resources/search: the configs, components and checks a playbook is offered
 * on (or of the given kinds), narrowed by a search text (seed 000 section 7).
 */
export function useResourceSearch(scope: ResourceScope, search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['playbook', 'resources', scope, search],
    placeholderData: keepPreviousData,
    enabled,
    queryFn: async ({ signal }) => {
      const body = { playbook_id: scope.playbook_id, kinds: scope.kinds, search: search || undefined, limit: 50 };
      const res = await apiPost<SearchAnswer>('/playbook/resources/search', body, { signal });
      const all = [
        ...(res.configs ?? []).map((r) => ({ ...r, kind: 'config' as const })),
        ...(res.components ?? []).map((r) => ({ ...r, kind: 'component' as const })),
        ...(res.checks ?? []).map((r) => ({ ...r, kind: 'check' as const })),
      ];
      return scope.types?.length ? all.filter((r) => r.type && scope.types!.includes(r.type)) : all;
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
