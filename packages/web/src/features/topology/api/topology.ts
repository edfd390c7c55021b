import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TopologyComponent, TopologyResponse } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';

/** The inputs of `GET /api/topology` (seed 002 section 7.2) the dashboard sends. */
export interface TopologyParams {
  id?: string;
  status?: string;
  type?: string;
  team?: string;
  labels?: string;
  agent_id?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  hidden?: boolean;
}

/** The query string: empty and 'All' values are left out; a chosen type lists flat. */
export function topologySearch(p: TopologyParams): string {
  const q = new URLSearchParams();
  const put = (k: string, v: string | undefined) => {
    if (v && v !== 'All') q.set(k, v);
  };
  put('id', p.id);
  put('status', p.status);
  put('type', p.type);
  put('team', p.team);
  put('labels', p.labels);
  put('agent_id', p.agent_id);
  put('sortBy', p.sortBy);
  put('sortOrder', p.sortOrder);
  if (p.type && p.type !== 'All') q.set('flatten', 'true');
  if (p.hidden) q.set('hidden', 'true');
  return q.toString();
}

const topologyQuery = (p: TopologyParams) =>
  queryOptions({
    queryKey: ['topology', 'list', topologySearch(p)],
    queryFn: ({ signal }) => apiRequest<TopologyResponse>(`/topology?${topologySearch(p)}`, { signal }),
  });

/** The listing for the dashboard; the previous answer stays on screen while filters change. */
export function useTopology(p: TopologyParams, opts: { enabled?: boolean } = {}) {
  return useQuery({ ...topologyQuery(p), placeholderData: keepPreviousData, enabled: opts.enabled ?? true });
}

/** Depth-first search of a listing for one component. */
export function findComponent(list: readonly TopologyComponent[], id: string): TopologyComponent | undefined {
  for (const c of list) {
    if (c.id === id) return c;
    const inner = c.components ? findComponent(c.components, id) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/**
 * What `/topology/{id}` answers: the component itself and its children. The listing gives the
 * component with its children nested, or (flattened) the matches beside it.
 */
export function cardsFor(data: TopologyResponse | undefined, id: string | undefined) {
  if (!data) return { self: undefined, cards: [] as TopologyComponent[] };
  if (!id) return { self: undefined, cards: data.components };
  const self = findComponent(data.components, id);
  const beside = data.components.filter((c) => c.id !== id);
  return { self, cards: beside.length ? beside : (self?.components ?? []) };
}
