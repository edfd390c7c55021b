/**
 * The agents screen's calls (seed 000 section 7, Agents): the list from agents_summary with the
 * creator embedded, one agent by id, POST /api/agent/generate, and PATCH of agents for edits and
 * the soft delete (with the cleanup flag); an agent's parked pushes and the retry/discard requests
 * (GET /api/agent/:id/parked, POST /api/agent/:id/parked/requests).
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgentFormInput, AgentParkedAction, AgentParkedRow, AgentSummary, GeneratedAgent } from '@watchdeck/core';
import { db, unwrap, unwrapWithCount } from '#web/lib/api.ts';
import { apiGet, apiPost } from '#web/lib/http.ts';

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
  parked: (id: string, offset: number) => ['agents', 'parked', id, offset] as const,
};

/** How often an open agent page looks again: the agent carries requests out on its next push (5 s). */
const PARKED_REFRESH_MS = 5_000;

export function useParkedRows(agentId: string, offset: number, limit: number) {
  return useQuery({
    queryKey: agentsKeys.parked(agentId, offset),
    queryFn: ({ signal }) =>
      apiGet<{ total: number; rows: AgentParkedRow[] }>(
        `/agent/${agentId}/parked?limit=${limit}&offset=${offset}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: PARKED_REFRESH_MS,
  });
}

export function useParkedRequest(agentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ action, ids }: { action: AgentParkedAction; ids: string[] }) =>
      apiPost<{ action: AgentParkedAction; requested: number; message: string }>(`/agent/${agentId}/parked/requests`, {
        action,
        ids,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['agents', 'parked', agentId] }),
  });
}

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
