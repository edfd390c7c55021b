/**
 * The agents screen's calls (seed 000 section 7, Agents): the list from agents_summary with the
 * creator embedded, one agent by id, POST /api/agent/generate, and PATCH of agents for edits and
 * the soft delete (with the cleanup flag).
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgentFormInput, AgentSummary, GeneratedAgent } from '@watchdeck/core';
import { db, unwrap, unwrapWithCount } from '#web/lib/api.ts';
import { apiPost } from '#web/lib/http.ts';

const SELECT = '*,created_by(id,name,avatar)';
/** Columns the table may sort on (anything else falls back to name). */
const SORTABLE = new Set([
  'name',
  'description',
  'last_seen',
  'created_at',
  'checks_count',
  'config_count',
  'config_scrapper_count',
  'playbook_runs_count',
]);

const agentsKeys = {
  all: ['agents'] as const,
  list: (pageIndex: number, pageSize: number, sortBy: string, desc: boolean) =>
    ['agents', 'list', pageIndex, pageSize, sortBy, desc] as const,
  one: (id: string) => ['agents', 'one', id] as const,
};

const listQuery = (pageIndex: number, pageSize: number, sortBy: string, desc: boolean) =>
  queryOptions({
    queryKey: agentsKeys.list(pageIndex, pageSize, sortBy, desc),
    queryFn: async ({ signal }) =>
      unwrapWithCount<AgentSummary>(
        await db
          .from('agents_summary')
          .select(SELECT, { count: 'exact' })
          .order(SORTABLE.has(sortBy) ? sortBy : 'name', { ascending: !desc, nullsFirst: false })
          .order('id')
          .range(pageIndex * pageSize, pageIndex * pageSize + pageSize - 1)
          .abortSignal(signal),
      ),
  });

export function useAgents(pageIndex: number, pageSize: number, sortBy: string, desc: boolean) {
  return useQuery({ ...listQuery(pageIndex, pageSize, sortBy, desc), placeholderData: keepPreviousData });
}

export function useAgent(id: string | null) {
  return useQuery({
    queryKey: agentsKeys.one(id ?? ''),
    enabled: !!id,
    queryFn: async ({ signal }) =>
      unwrap(await db.from('agents_summary').select(SELECT).eq('id', id!).abortSignal(signal)) as AgentSummary[],
    select: (rows) => rows[0] ?? null,
  });
}

export function useGenerateAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AgentFormInput) => apiPost<GeneratedAgent>('/agent/generate', input),
    onSuccess: () => qc.invalidateQueries({ queryKey: agentsKeys.all }),
  });
}

export interface AgentPatch {
  description?: string | null;
  properties?: Record<string, string>;
  spec?: AgentSummary['spec'];
  deleted_at?: string;
  cleanup?: boolean;
}

export function usePatchAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, patch }: { id: string; patch: AgentPatch }) =>
      unwrap(await db.from('agents').update(patch).eq('id', id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: agentsKeys.all }),
  });
}
