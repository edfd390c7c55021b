import { useEffect, useRef } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopologyComponent, TopologyResponse } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';
import { CARD_PAGE } from '../lib/constants.ts';
import { topologySearch, type TopologyParams } from './params.ts';
import { takePreloaded } from './preload.ts';

const topologyQuery = (p: TopologyParams) =>
  queryOptions({
    queryKey: ['topology', 'list', topologySearch(p)],
    queryFn: ({ signal }) =>
      takePreloaded(topologySearch(p)) ?? apiRequest<TopologyResponse>(`/topology?${topologySearch(p)}`, { signal }),
  });

/** How many components the listing answered at its listed level (the cards it gives). */
function listedCount(data: TopologyResponse, p: TopologyParams): number {
  if (p.id && !(p.type && p.type !== 'All')) return data.components[0]?.components?.length ?? 0;
  return data.components.length;
}

/**
 * The listing for the dashboard; the previous answer stays on screen while filters change.
 * `firstPage`: the first CARD_PAGE components are asked for first (what the grid renders at
 * once), and the whole listing once they are on screen, when there may be more. 500 root cards
 * are a 1 MB answer the server and the browser take hundreds of ms over; the first page is a
 * tenth of it (bench/scenarios/topology-page-render.ts).
 */
export function useTopology(p: TopologyParams, opts: { enabled?: boolean; firstPage?: boolean } = {}) {
  const enabled = opts.enabled ?? true;
  const shown = useRef<TopologyResponse | undefined>(undefined);
  const placeholderData = () => shown.current;
  const head = useQuery({
    ...topologyQuery(opts.firstPage ? { ...p, limit: CARD_PAGE } : p),
    placeholderData,
    enabled,
  });
  const more = !!opts.firstPage && !!head.data && !head.isPlaceholderData && listedCount(head.data, p) >= CARD_PAGE;
  const whole = useQuery({ ...topologyQuery(p), placeholderData, enabled: enabled && more });
  const complete = more && !!whole.data && !whole.isPlaceholderData;
  const data = complete ? whole.data : head.data;
  const real = !!data && !(complete ? whole : head).isPlaceholderData;
  // what a new query shows while it loads: the last real answer (the whole one once it came)
  useEffect(() => {
    if (real) shown.current = data;
  }, [real, data]);
  return {
    data,
    error: head.error ?? (more ? whole.error : null),
    isPending: head.isPending,
    isFetching: head.isFetching || (more && whole.isFetching),
  };
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
