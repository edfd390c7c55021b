import { useMutation } from '@tanstack/react-query';
import { ApiError, apiPost } from '#web/lib/http.ts';
import { CONNECTION_MESSAGES } from '../messages.ts';

type TestOutcome =
  | { kind: 'success'; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'not-implemented'; message: string };

/** The text of a 400: the server's error, itself parsed as JSON when it is JSON. */
function badRequestMessage(body: unknown): string {
  const raw = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (typeof raw !== 'string' || !raw.trim()) return CONNECTION_MESSAGES.testFailed;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object') {
      const inner = (parsed as { message?: unknown; error?: unknown }).message ?? (parsed as { error?: unknown }).error;
      if (typeof inner === 'string' && inner.trim()) return inner;
    }
    return typeof parsed === 'string' && parsed.trim() ? parsed : raw;
  } catch {
    return raw;
  }
}

/**
 * POST /api/connection/test/{id} (seed 002 section 7.5) and its three outcomes (section 4):
 * success when the answer is 200 with message 'ok'; a bad request shows the server's error (or
 * 'Testing connection failed!'); 501 is 'not implemented'; anything else 'Testing connection failed!'.
 */
async function testConnection(id: string): Promise<TestOutcome> {
  try {
    const data = await apiPost<{ message?: string; error?: string }>(`/connection/test/${encodeURIComponent(id)}`);
    if (data?.message === 'ok') return { kind: 'success', message: CONNECTION_MESSAGES.testOk };
    return { kind: 'error', message: data?.error || CONNECTION_MESSAGES.testFailed };
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return { kind: 'error', message: badRequestMessage(err.body) };
    if (err instanceof ApiError && err.status === 501)
      return { kind: 'not-implemented', message: CONNECTION_MESSAGES.testNotImplemented };
    return { kind: 'error', message: CONNECTION_MESSAGES.testFailed };
  }
}

export function useTestConnection() {
  return useMutation({ mutationFn: testConnection });
}
