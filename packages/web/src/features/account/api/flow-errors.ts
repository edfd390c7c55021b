import { ApiError, errorMessage } from '#web/lib/http.ts';
import { isFlow, isFlowErrorBody, type Flow, type FlowType } from './flow-types.ts';
import { resolveRedirect } from './redirects.ts';

/** The account flow messages of the error catalogue (seed 002 section 8). */
export const FLOW_ERROR_MESSAGES = {
  self_service_flow_return_to_forbidden: 'The return_to address is not allowed.',
  self_service_flow_expired: 'Your interaction expired, please fill out the form again.',
  security_csrf_violation: 'A security violation was detected, please fill out the form again.',
} as const;

export type FlowErrorAction =
  /** 400: the form again, with the server's messages */
  | { kind: 'show'; flow: Flow }
  /** leave for another address (an app path or an /api browser URL; see redirects.ts) */
  | { kind: 'redirect'; to: string }
  /**
   * start the flow over: with the server's replacement flow when it made one, and without the
   * return_to when that was the problem
   */
  | { kind: 'restart'; message?: string; useFlowId?: string; dropReturnTo?: boolean }
  /** nothing sensible to do but say what went wrong */
  | { kind: 'fail'; message: string };

const withReturnTo = (path: string, returnTo: string) => `${path}?return_to=${encodeURIComponent(returnTo)}`;

/**
 * What a page does with a failed flow call, following the transitions of seed 002 section 4.
 * `currentPath` (path and query of the page) becomes the return_to where one is needed.
 */
export function decideFlowError(err: unknown, type: FlowType, currentPath: string): FlowErrorAction {
  if (!(err instanceof ApiError) || err.kind !== 'http') return { kind: 'fail', message: errorMessage(err) };
  const body = err.body;
  if (err.status === 400 && isFlow(body)) return { kind: 'show', flow: body };

  if (isFlowErrorBody(body)) {
    const id = body.error.id;
    const to = body.redirect_browser_to;
    switch (id) {
      case 'session_aal2_required':
        return { kind: 'redirect', to: to ?? `/login?aal=aal2&return_to=${encodeURIComponent(currentPath)}` };
      case 'session_already_available':
        return { kind: 'redirect', to: '/' };
      case 'session_refresh_required':
        return { kind: 'redirect', to: to ?? `/login?refresh=true&return_to=${encodeURIComponent(currentPath)}` };
      case 'session_inactive':
        return { kind: 'redirect', to: to ?? withReturnTo('/login', currentPath) };
      case 'browser_location_change_required':
        return to ? { kind: 'redirect', to } : { kind: 'restart' };
      case 'security_identity_mismatch':
        return { kind: 'restart' };
      case 'self_service_flow_expired':
        return {
          kind: 'restart',
          message: body.error.message || FLOW_ERROR_MESSAGES.self_service_flow_expired,
          useFlowId: body.use_flow_id,
        };
      case 'security_csrf_violation':
        return { kind: 'restart', message: body.error.message || FLOW_ERROR_MESSAGES.security_csrf_violation };
      case 'self_service_flow_return_to_forbidden':
        return {
          kind: 'restart',
          message: body.error.message || FLOW_ERROR_MESSAGES.self_service_flow_return_to_forbidden,
          dropReturnTo: true,
        };
      case 'not_found':
        // an unknown flow id in the address (an old bookmark, a pruned flow): just begin anew
        return { kind: 'restart' };
    }
  }
  if (err.status === 410) return { kind: 'restart', message: FLOW_ERROR_MESSAGES.self_service_flow_expired };
  if (type === 'verification' && err.status === 403) return { kind: 'restart' };
  const reason = isFlowErrorBody(body) ? body.error.reason : undefined;
  return { kind: 'fail', message: reason ?? err.message };
}

/** The account pages by path, with the titles they show (seed 002 section 2.19). */
const PAGE_TITLES: Record<string, string> = {
  '/login': 'Sign in',
  '/registration': 'Create account',
  '/recovery': 'Recover account',
  '/verification': 'Verify your account',
  '/profile-settings': 'Profile Settings',
};

export interface StoredFlowErrorView {
  /** the catalogue's message (seed 002 section 8), else the server's */
  message: string;
  /** why, when the server says more (e.g. 'The recovery link was already used or has expired.') */
  reason?: string;
  /** the way forward the server named (an app path) and its label */
  next?: { to: string; label: string };
}

/**
 * What the flow-error page (/error/:id) shows for a stored flow error: a used or unknown
 * invitation or recovery link is an interaction that expired, whose way forward is the form
 * again. Never the raw body. Anything that is not a flow error: its message, or 'An error occurred'.
 */
export function storedFlowErrorView(body: unknown): StoredFlowErrorView {
  if (!isFlowErrorBody(body)) {
    const nested = (body as { error?: { message?: unknown } } | null)?.error?.message;
    return { message: typeof nested === 'string' && nested.trim() ? nested : errorMessage(body) };
  }
  const id = body.error.id;
  const message =
    id === 'not_found'
      ? FLOW_ERROR_MESSAGES.self_service_flow_expired
      : ((FLOW_ERROR_MESSAGES as Record<string, string>)[id] ?? body.error.message ?? body.message);
  const reason = body.error.reason && body.error.reason !== message ? body.error.reason : undefined;
  let next: StoredFlowErrorView['next'];
  if (body.redirect_browser_to) {
    const r = resolveRedirect(body.redirect_browser_to);
    if (!r.external) next = { to: r.path, label: PAGE_TITLES[r.path.split(/[?#]/, 1)[0]] ?? 'Continue' };
  }
  return { message, reason, next };
}
