import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TopologyComponent, TopologyResponse } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';
import { topologySearch, type TopologyParams } from './params.ts';
import { takePreloaded } from './preload.ts';

const topologyQuery = (p: TopologyParams) =>
  queryOptions({
    queryKey: ['topology', 'list', topologySearch(p)],
    queryFn: ({ signal }) =>
      takePreloaded(topologySearch(p)) ?? apiRequest<TopologyResponse>(`/topology?${topologySearch(p)}`, { signal }),
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
