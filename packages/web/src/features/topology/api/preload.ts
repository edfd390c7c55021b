import type { TopologyResponse } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';
import { readStored } from '#web/lib/storage.ts';
import { STORAGE_KEYS } from '../lib/constants.ts';
import { topologySearch, type TopologyParams } from './params.ts';

/**
 * The dashboard's listing call started with its route's code rather than after it: app/routes.ts
 * calls preloadTopology when the router picks /topology (500 root cards show sooner). Kept free of
 * React so it can sit in the main bundle. The page takes the answer over when its query asks for
 * the same URL within PRELOAD_FRESH_MS, else asks anew.
 */
const PRELOAD_FRESH_MS = 15_000;
const early = new Map<string, { at: number; promise: Promise<TopologyResponse> }>();

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
  const qs = topologySearch(dashboardParams(m[1] ? decodeURIComponent(m[1]) : undefined, new URLSearchParams(search)));
  if (early.has(qs)) return;
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
