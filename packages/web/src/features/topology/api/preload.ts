import type { TopologyResponse } from '@watchdeck/core';
import { apiAnswer, apiRequest } from '#web/lib/http.ts';
import { readStored } from '#web/lib/storage.ts';
import { CARD_PAGE, STORAGE_KEYS } from '../lib/constants.ts';
import { topologySearch, type TopologyParams } from './params.ts';

/**
 * The dashboard's listing call started before the page asks for it: index.html's inline script
 * sends it while the bundle loads (adopted below), else app/routes.ts calls preloadTopology when
 * the router picks /topology, with the route's code. 500 root cards are a 1 MB answer the server
 * takes a few hundred ms over: waiting for the bundle first made it the last step of a waterfall.
 * Kept free of React so it can sit in the main bundle. The page takes the answer over when its
 * query asks for the same URL within PRELOAD_FRESH_MS, else asks anew.
 */
const PRELOAD_FRESH_MS = 15_000;
interface Early {
  at: number;
  promise: Promise<TopologyResponse>;
  controller?: AbortController;
}
const early = new Map<string, Early>();

/** What index.html's inline script leaves when it started the call of a /topology URL. */
interface InlineTopology {
  search: string;
  at: number;
  controller: AbortController;
  response: Promise<Response>;
}

// Adopted when this module loads (the main bundle), before the router's preload looks for it.
const inline = (window as { __watchdeckTopology?: InlineTopology }).__watchdeckTopology;
if (inline) {
  delete (window as { __watchdeckTopology?: InlineTopology }).__watchdeckTopology;
  const promise = apiAnswer<TopologyResponse>(inline.response);
  promise.catch(() => {}); // a failure is the page's to report, when it takes the call over
  early.set(inline.search, { at: inline.at, promise, controller: inline.controller });
}

/** The listing's parameters for a dashboard URL, with the stored sort and show-hidden choice. */
export function dashboardParams(id: string | undefined, search: URLSearchParams): TopologyParams {
  const urlOrder = search.get('sortOrder');
  const get = (k: string) => search.get(k) ?? undefined;
  return {
    id,
    status: get('status'),
    type: get('type'),
    team: get('team'),
    labels: get('labels'),
    agent_id: get('agent_id'),
    sortBy:
      search.get('sortBy') ||
      readStored<string | undefined>(STORAGE_KEYS.sortByCustom, undefined) ||
      readStored<string | undefined>(STORAGE_KEYS.sortByStandard, undefined) ||
      'status',
    sortOrder:
      urlOrder === 'asc' || urlOrder === 'desc' ? urlOrder : readStored<'asc' | 'desc'>(STORAGE_KEYS.sortOrder, 'asc'),
    hidden: readStored<boolean>(STORAGE_KEYS.showHidden, false),
  };
}

export function preloadTopology(pathname: string, search: string): void {
  const m = /^\/topology(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!m) return;
  const id = m[1] ? decodeURIComponent(m[1]) : undefined;
  // the page's first call: its first page (api/topology.ts, useTopology with firstPage)
  const qs = topologySearch({ ...dashboardParams(id, new URLSearchParams(search)), limit: CARD_PAGE });
  if (early.has(qs)) return;
  // an early call for a URL the page will not ask for (the inline script's guess) is not wanted
  for (const [other, e] of early) {
    e.controller?.abort();
    early.delete(other);
  }
  const promise = apiRequest<TopologyResponse>(`/topology?${qs}`);
  promise.catch(() => {}); // a failure is the page's to report, when it takes the call over
  early.set(qs, { at: Date.now(), promise });
}

/** A preloaded answer for this query string, handed out once. */
export function takePreloaded(qs: string): Promise<TopologyResponse> | undefined {
  const e = early.get(qs);
  early.delete(qs);
  return e && Date.now() - e.at <= PRELOAD_FRESH_MS ? e.promise : undefined;
}
