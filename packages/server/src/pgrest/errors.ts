/**
 * PostgREST-shaped errors: {code, message, details, hint} with PostgREST's codes and statuses.
 * Database errors are mapped by SQLSTATE so bad input is always a 4xx, never a 500.
 */
export class RestError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details: string | null = null,
    public readonly hint: string | null = null,
    /** extra response headers (e.g. Content-Range on 416) */
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body() {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

export const parseError = (message: string, details: string | null = null) => new RestError(400, 'PGRST100', message, details);

export const tableNotFound = (table: string) =>
  new RestError(404, 'PGRST205', `Could not find the table 'public.${table}' in the schema cache`);

export const columnNotFound = (table: string, column: string) =>
  new RestError(400, '42703', `column ${table}.${column} does not exist`);

/**
 * SQLSTATE -> HTTP status, as PostgREST maps them (docs: Errors, HTTP status codes). What is not
 * listed is the client's doing (bad value, failed check...): 400.
 */
export function statusFor(code: string): number {
  if (code === '23505' || code === '23503') return 409;
  if (code === '42501') return 403;
  if (code === '42P01' || code === '42883') return 404;
  if (code === '25006') return 405;
  if (code === 'P0001') return 400;
  if (code === '53400') return 500;
  // RAISE SQLSTATE 'PT402' in a function chooses the status itself
  if (/^PT[1-5]\d\d$/.test(code)) return Number(code.slice(2));
  if (/^(08|53)/.test(code)) return 503;
  if (/^(0L|0P|28)/.test(code)) return 403;
  if (/^(09|25|2D|38|39|3B|40|54|55|57|58|F0|HV|P0|XX)/.test(code)) return 500;
  return 400;
}

interface PgLikeError {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

export function fromDatabaseError(err: unknown): RestError {
  if (err instanceof RestError) return err;
  const e = err as PgLikeError;
  if (e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return new RestError(statusFor(e.code), e.code, e.message ?? 'database error', e.detail ?? null, e.hint ?? null);
  }
  return new RestError(500, 'PGRST000', 'internal error');
}
