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

/**
 * Summary calls by URL: in flight, and a preload's answer not yet taken. Every caller of one URL
 * shares one request while it is in flight (the page, a refetch, a remount), so the same summary
 * is never sent twice at once: on a slow server a second request would only queue behind the
 * first. A request is aborted when its last caller has let go (a new time range, a closed page)
 * and no one takes it up again within DETACH_GRACE_MS (a remount does, at once; so does a quick
 * switch back to the range).
 */
interface SummaryCall {
  url: string;
  promise: Promise<unknown>;
  controller: AbortController;
  /** callers waiting for it now */
  users: number;
  /** a caller has had it (a preload until then) */
  taken: boolean;
  /** when it answered or failed */
  settledAt?: number;
  idle?: ReturnType<typeof setTimeout>;
}
const calls = new Map<string, SummaryCall>();
/** how long a preload's answer that nobody has taken yet stays good for the page */
const PRELOAD_FRESH_MS = 15_000;
// a person flicking to another range and back within a second gets the call still in flight,
// not a second computation behind it on a slow server
const DETACH_GRACE_MS = 1000;

function register(url: string, promise: Promise<unknown>, controller: AbortController): SummaryCall {
  promise.catch(() => {}); // a failure is the taking caller's to report
  const call: SummaryCall = { url, promise, controller, users: 0, taken: false };
  calls.set(url, call);
  const settled = () => {
    call.settledAt = Date.now();
    // a taken answer is not handed out again: the next refetch asks the server anew
    if (call.taken && calls.get(url) === call) calls.delete(url);
  };
  promise.then(settled, settled);
  return call;
}

/**
 * In flight, whatever its age (a slow server answers late; asking again would only add a second
 * computation behind the first), or a preload answered within PRELOAD_FRESH_MS.
 */
function adoptable(call: SummaryCall | undefined): call is SummaryCall {
  if (!call) return false;
  return call.settledAt === undefined || (!call.taken && Date.now() - call.settledAt <= PRELOAD_FRESH_MS);
}

/** A preload for another URL (an early call for a timeRange the app does not know) is not wanted. */
function dropPreloadsOtherThan(url: string): void {
  for (const call of [...calls.values()]) {
    if (call.url === url || call.taken) continue;
    call.controller.abort();
    calls.delete(call.url);
  }
}

function send(url: string): SummaryCall {
  dropPreloadsOtherThan(url);
  const controller = new AbortController();
  return register(url, apiGet<unknown>(url, controller.signal), controller);
}

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
  register(early.url, apiAnswer<unknown>(early.response), early.controller);
}

export function preloadSummary(params: SummaryParams): void {
  const url = summaryUrl(params);
  // already on its way (index.html's inline script started it before the router did)
  if (!adoptable(calls.get(url))) send(url);
}

/**
 * The summary at `url`: the call in flight for it (a preload, or another caller's), or a new one.
 * `signal` aborting lets go of it (the promise rejects with an AbortError); the request itself is
 * aborted once nobody waits for it.
 */
export function fetchSummary(url: string, signal: AbortSignal): Promise<unknown> {
  const existing = calls.get(url);
  const call = adoptable(existing) ? existing : send(url);
  if (call.settledAt !== undefined && calls.get(url) === call) calls.delete(url);
  call.taken = true;
  call.users++;
  clearTimeout(call.idle);
  return new Promise((resolve, reject) => {
    let waiting = true;
    const letGo = () => {
      if (!waiting) return;
      waiting = false;
      call.users--;
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      letGo();
      if (call.users === 0 && call.settledAt === undefined)
        call.idle = setTimeout(() => {
          if (call.users > 0 || call.settledAt !== undefined) return;
          call.controller.abort();
          if (calls.get(url) === call) calls.delete(url);
        }, DETACH_GRACE_MS);
      reject(new DOMException('The summary call was let go', 'AbortError'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    call.promise.then(
      (v) => {
        if (!waiting) return;
        letGo();
        resolve(v);
      },
      (err: unknown) => {
        if (!waiting) return;
        letGo();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
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
