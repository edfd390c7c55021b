import { apiRequest } from '#web/lib/http.ts';
import type { Flow, FlowResult, FlowType } from './flow-types.ts';
import { query } from './flow-query.ts';

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
