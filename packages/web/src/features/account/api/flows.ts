import { apiRequest } from '../../../lib/http.ts';
import type { Flow, FlowResult, FlowType } from './flow-types.ts';

/**
 * The calls of the self-service flows (seed 002 section 7.9). They never trigger the app-wide
 * 401 redirect: a 401 here is a flow error (session_inactive) the account pages handle themselves.
 */

export interface FlowParams {
  return_to?: string;
  aal?: string;
  refresh?: string;
}

function query(params: Record<string, string | undefined>): string {
  const qs = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  ).toString();
  return qs ? `?${qs}` : '';
}

/** GET .../{type}/browser: a new flow bound to this browser (the CSRF cookie). */
export function createFlow(type: FlowType, params: FlowParams = {}, signal?: AbortSignal): Promise<Flow> {
  return apiRequest<Flow>(`/auth/self-service/${type}/browser${query({ ...params })}`, {
    signal,
    skipAuthRedirect: true,
  });
}

/** GET .../{type}/flows?id=: an existing flow (404 unknown, 403 other browser, 410 expired). */
export function getFlow(type: FlowType, id: string, signal?: AbortSignal): Promise<Flow> {
  return apiRequest<Flow>(`/auth/self-service/${type}/flows${query({ id })}`, { signal, skipAuthRedirect: true });
}

/**
 * POST .../{type}?flow=: submits one form of the flow. Answers the updated flow, or for login and
 * registration the new session with `continue_with`. A 400 carries the flow with its messages and
 * other failures the error body; both arrive as ApiError (status, body).
 */
export function submitFlow(type: FlowType, flowId: string, body: Record<string, unknown>): Promise<Flow | FlowResult> {
  return apiRequest<Flow | FlowResult>(`/auth/self-service/${type}${query({ flow: flowId })}`, {
    method: 'POST',
    body,
    skipAuthRedirect: true,
  });
}

/** POST /api/auth/logout: ends this browser's session (also the way out of a second-factor prompt). */
export function logout(): Promise<void> {
  return apiRequest<void>('/auth/logout', { method: 'POST', skipAuthRedirect: true });
}
