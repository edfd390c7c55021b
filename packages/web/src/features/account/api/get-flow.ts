import { apiRequest } from '#web/lib/http.ts';
import type { Flow, FlowType } from './flow-types.ts';
import { query } from './flow-query.ts';

/** GET .../{type}/flows?id=: an existing flow (404 unknown, 403 other browser, 410 expired). */
export function getFlow(type: FlowType, id: string, signal?: AbortSignal): Promise<Flow> {
  return apiRequest<Flow>(`/auth/self-service/${type}/flows${query({ id })}`, { signal, skipAuthRedirect: true });
}
