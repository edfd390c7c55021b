import { clearBackend, currentBackend, routed } from './backend.ts';

/**
 * The HTTP client for the JSON routes under /api (everything except /api/db, which goes through
 * the PostgREST client in api.ts). Failures become an ApiError whose message is the one the seeds
 * prescribe (seed 000 section 8), so a caller can show `err.message` or hand it to toastError.
 */

const MESSAGES = {
  timeout: 'Request timed out. Please try again.',
  network: 'Network Error. Please try again.',
  offline: 'No internet connection. Please try again.',
  generic: 'An error occurred',
} as const;

const DEFAULT_TIMEOUT_MS = 30_000;

export type ApiErrorKind = 'http' | 'timeout' | 'network' | 'offline';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The parsed JSON body (or the text) of a failed response. */
  readonly body: unknown;

  constructor(kind: ApiErrorKind, message: string, status = 0, body: unknown = undefined) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.body = body;
  }
}

function field(body: unknown, key: 'error' | 'message'): string | undefined {
  if (body && typeof body === 'object' && key in body) {
    const v = (body as Record<string, unknown>)[key];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return undefined;
}

/**
 * The generic failure text: the response's error field, else its message, else 'An error occurred'.
 * A body that is not JSON (a proxy's HTML page, a stack trace) is never shown: it has neither field.
 * In the server's own error shape ({statusCode, code, error, message}) `error` is only the status
 * text ('Bad Request'); the sentence is the message.
 */
function messageFromBody(body: unknown): string {
  const ownShape =
    !!body && typeof body === 'object' && typeof (body as { statusCode?: unknown }).statusCode === 'number';
  if (ownShape && field(body, 'message')) return field(body, 'message')!;
  return field(body, 'error') ?? field(body, 'message') ?? MESSAGES.generic;
}

/** PostgREST's client reports a failed fetch as '<error name>: <message>'; keep our message. */
const stripName = (text: string) => text.replace(/^ApiError: /, '');

/** The text to show for anything thrown by a call (ApiError, PostgREST error object, Error, string). */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message || MESSAGES.generic;
  if (typeof err === 'string') return stripName(err) || MESSAGES.generic;
  if (err && typeof err === 'object') {
    const fromBody = field(err, 'error') ?? field(err, 'message');
    if (fromBody) return stripName(fromBody);
  }
  return MESSAGES.generic;
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Maps an exception thrown by fetch (no response) to an ApiError. */
function transportError(err: unknown, timedOut: boolean): ApiError {
  if (timedOut) return new ApiError('timeout', MESSAGES.timeout);
  if (isOffline()) return new ApiError('offline', MESSAGES.offline);
  return new ApiError(
    'network',
    err instanceof Error && err.name === 'AbortError' ? 'Request aborted' : MESSAGES.network,
  );
}

type UnauthorizedHandler = () => void;

/** Where a 401 sends the browser: the sign-in page with the current path as return_to. */
export function loginUrl(returnTo?: string): string {
  const path = returnTo ?? `${window.location.pathname}${window.location.search}`;
  return `/login?return_to=${encodeURIComponent(path)}`;
}

const PUBLIC_PREFIXES = ['/login', '/registration', '/recovery', '/verification', '/error'];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

let unauthorizedHandler: UnauthorizedHandler = () => {
  if (isPublicPath(window.location.pathname)) return;
  window.location.assign(loginUrl());
};

/** Replaces what happens on a 401 (the app installs a router-aware one; tests a spy). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

function handleUnauthorized(): void {
  // hosted mode: the organisation's token ran out or was revoked; this origin decides again
  // (sign in, or the organisation picker)
  if (currentBackend()) {
    clearBackend();
    window.location.assign('/');
    return;
  }
  unauthorizedHandler();
}

export interface RequestOptions extends Omit<RequestInit, 'body' | 'signal'> {
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Don't run the 401 handler (the session loader decides itself). */
  skipAuthRedirect?: boolean;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * fetch with a timeout and the error mapping above. Relative paths are under /api
 * (`apiRequest('/about')` calls /api/about); absolute URLs are used as they are.
 */
export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const { body, signal, timeoutMs = DEFAULT_TIMEOUT_MS, skipAuthRedirect, headers, ...init } = opts;
  // hosted mode: /api/... goes to the organisation's backend with its token (lib/backend.ts)
  const target = routed(/^https?:\/\//.test(path) || path.startsWith('/api/') ? path : `/api${path}`);
  const url = target.url;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);
  const hasBody = body !== undefined;
  let res: Response;
  try {
    res = await fetch(url, {
      credentials: 'same-origin',
      ...init,
      headers: {
        Accept: 'application/json',
        ...target.headers,
        ...(hasBody && !(body instanceof FormData) ? { 'Content-Type': 'application/json' } : {}),
        ...(headers as Record<string, string> | undefined),
      },
      body: hasBody ? (body instanceof FormData ? body : JSON.stringify(body)) : undefined,
      signal: controller.signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw transportError(err, timedOut);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return answerOf<T>(res, skipAuthRedirect);
}

/** The body of a response as apiRequest gives it: an ApiError for a failure, 401s handled. */
async function answerOf<T>(res: Response, skipAuthRedirect = false): Promise<T> {
  if (!res.ok) {
    const errBody = await readBody(res);
    if (res.status === 401 && !skipAuthRedirect) handleUnauthorized();
    throw new ApiError('http', messageFromBody(errBody), res.status, errBody);
  }
  if (res.status === 204) return undefined as T;
  return (await readBody(res)) as T;
}

/**
 * apiRequest's answer for a GET whose fetch was started before this code loaded (index.html's
 * inline preload): the same error mapping and 401 handling.
 */
export async function apiAnswer<T>(started: Promise<Response>): Promise<T> {
  let res: Response;
  try {
    res = await started;
  } catch (err) {
    throw transportError(err, false);
  }
  return answerOf<T>(res);
}

export const apiGet = <T>(path: string, signal?: AbortSignal) => apiRequest<T>(path, { signal });
export const apiPost = <T>(path: string, body?: unknown, opts: RequestOptions = {}) =>
  apiRequest<T>(path, { ...opts, method: 'POST', body });

/**
 * A fetch for third-party clients (the PostgREST client): same 401 redirect and transport error
 * messages, but the response itself is returned for the client to interpret.
 */
export const fetchWithAuth: typeof fetch = async (input, init) => {
  let res: Response;
  try {
    res = await fetch(input, init);
  } catch (err) {
    if (init?.signal?.aborted) throw err;
    throw transportError(err, false);
  }
  if (res.status === 401) handleUnauthorized();
  return res.ok ? res : withJsonError(res);
};

/**
 * PostgREST's client turns an error body that is not JSON into `{message: <the text>}`, which
 * would put a proxy's HTML page in a toast; such a body becomes `{message: 'An error occurred'}`.
 */
async function withJsonError(res: Response): Promise<Response> {
  const text = await res
    .clone()
    .text()
    .catch(() => '');
  if (!text.trim()) return res;
  try {
    JSON.parse(text);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    headers.set('Content-Type', 'application/json');
    return new Response(JSON.stringify({ message: MESSAGES.generic }), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  }
}
