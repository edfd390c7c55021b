import { PostgrestClient } from '@supabase/postgrest-js';
import { ApiError, errorMessage, fetchWithAuth } from './http.ts';
import { currentBackend } from './backend.ts';

export { apiGet } from './http.ts';

/**
 * The /api/db client: PostgREST's URL language against our own engine; in hosted mode the
 * organisation's backend with its bearer token (lib/backend.ts).
 */
const backend = currentBackend();
export const db = new PostgrestClient(`${backend?.url ?? window.location.origin}/api/db`, {
  fetch: fetchWithAuth,
  ...(backend ? { headers: { Authorization: `Bearer ${backend.token}` } } : {}),
});

interface DbResult<T> {
  data: T | null;
  error: { message: string; code?: string; details?: string | null; hint?: string | null } | null;
  status?: number;
  count?: number | null;
}

/** Turns a PostgREST error into an ApiError (message as the error catalogue wants it). */
function dbError(error: NonNullable<DbResult<unknown>['error']>, status = 0): ApiError {
  return new ApiError(status ? 'http' : 'network', errorMessage(error), status, error);
}

/** The data of a /api/db call, or throws its error: `const rows = unwrap(await db.from('x').select())`. */
export function unwrap<T>(result: DbResult<T>): T {
  if (result.error) throw dbError(result.error, result.status);
  return result.data as T;
}

/** The rows and the total of a call made with `{ count: 'exact' }` (Content-Range). */
export function unwrapWithCount<T>(result: DbResult<T[]>): { rows: T[]; total: number } {
  const rows = unwrap(result) ?? [];
  return { rows, total: result.count ?? rows.length };
}
