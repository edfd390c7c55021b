import { apiAnswer, apiGet } from '#web/lib/http.ts';
import { decodeLabelsParam, labelsFilterParam } from '../lib/filters.ts';
import { DEFAULT_HEALTH_TIME_RANGE, isHealthTimeRange, type HealthTimeRange } from '../lib/time-ranges.ts';

/**
 * The summary call's URL, and its first call of a page load started before the page renders.
 * Kept small and free of React: app/routes.ts imports it into the main bundle so the call can
 * start the moment the router picks /health, alongside the route's code and the session calls
 * (the feed is the slowest call of the page; rows can't show before it).
 */
export interface SummaryParams {
  timeRange: HealthTimeRange;
  labels?: string;
  checkId?: string;
}

export function summaryUrl({ timeRange, labels, checkId }: SummaryParams): string {
  const q = new URLSearchParams({ start: timeRange });
  if (labels) q.set('labels', labels);
  if (checkId) q.set('check_id', checkId);
  return `/api/canary/api/summary?${q}`;
}

let preloaded: { url: string; at: number; promise: Promise<unknown>; controller: AbortController } | undefined;
const PRELOAD_FRESH_MS = 15_000;

/** What index.html's inline script leaves when it started the call of a /health deep link. */
interface EarlySummary {
  url: string;
  at: number;
  controller: AbortController;
  response: Promise<Response>;
}

// Adopted when this module loads, so the router's preload below finds it under its URL.
const early = (window as { __watchdeckSummary?: EarlySummary }).__watchdeckSummary;
if (early) {
  delete (window as { __watchdeckSummary?: EarlySummary }).__watchdeckSummary;
  const promise = apiAnswer<unknown>(early.response);
  promise.catch(() => {}); // a failure is the taking query's to report
  preloaded = { url: early.url, at: early.at, promise, controller: early.controller };
}

export function preloadSummary(params: SummaryParams): void {
  const url = summaryUrl(params);
  // already on its way (index.html's inline script started it before the router did)
  if (preloaded && preloaded.url === url && Date.now() - preloaded.at <= PRELOAD_FRESH_MS) return;
  // one for another URL (an early call for a timeRange the app does not know) is not wanted
  preloaded?.controller.abort();
  const controller = new AbortController();
  const promise = apiGet<unknown>(url, controller.signal);
  promise.catch(() => {}); // a failure is the taking query's to report
  preloaded = { url, at: Date.now(), promise, controller };
}

/** Starts the summary call a /health URL's page will make (its timeRange and labels). */
export function preloadHealthSummary(search: string): void {
  const p = new URLSearchParams(search);
  const range = p.get('timeRange');
  preloadSummary({
    timeRange: isHealthTimeRange(range) ? range : DEFAULT_HEALTH_TIME_RANGE,
    labels: labelsFilterParam(decodeLabelsParam(p.get('labels'))),
  });
}

/**
 * The preloaded answer for `url` (once), if fresh; a preload for another URL is aborted: a
 * previous request is aborted when a new one starts.
 */
export function takePreloaded(url: string, signal: AbortSignal): Promise<unknown> | undefined {
  const p = preloaded;
  preloaded = undefined;
  if (!p) return undefined;
  if (p.url !== url || Date.now() - p.at > PRELOAD_FRESH_MS) {
    p.controller.abort();
    return undefined;
  }
  signal.addEventListener('abort', () => p.controller.abort());
  return p.promise;
}
