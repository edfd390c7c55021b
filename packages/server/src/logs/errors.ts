/**
 * The two ways a search fails. LogRequestError: the request or the configuration is wrong (400,
 * 403, 404), said in words. LogBackendError: the backend could not be asked or answered nonsense;
 * the route answers 502 naming the backend, never an empty result.
 */
export class LogRequestError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

export class LogBackendError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** A thrown value's text without a stack, for a 502's message. */
export function reason(err: unknown): string {
  const e = err as { message?: unknown; cause?: { message?: unknown; code?: unknown } };
  const msg = typeof e?.message === 'string' ? e.message : String(err);
  // fetch says 'fetch failed'; the cause says why (ECONNREFUSED 127.0.0.1:3100)
  const cause = typeof e?.cause?.message === 'string' ? e.cause.message : undefined;
  return cause && msg === 'fetch failed' ? cause : msg;
}
