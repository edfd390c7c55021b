import { apiRequest } from '#web/lib/http.ts';
import type { Flow, FlowType } from './flow-types.ts';
import { type FlowParams, query } from './flow-query.ts';

/** GET .../{type}/browser: a new flow bound to this browser (the CSRF cookie). */
export function createFlow(type: FlowType, params: FlowParams = {}, signal?: AbortSignal): Promise<Flow> {
  return apiRequest<Flow>(`/auth/self-service/${type}/browser${query({ ...params })}`, {
    signal,
    skipAuthRedirect: true,
  });
}
