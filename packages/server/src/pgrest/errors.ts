import { isConnectionError } from '../db/errors.ts';

/**
 * PostgREST-shaped errors: {code, message, details, hint} with PostgREST's codes and statuses.
 * Database errors are mapped by SQLSTATE so bad input is always a 4xx, never a 500.
 */
export class RestError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    /** a sentence, or structured details (PGRST201 lists the candidate relationships) */
    public readonly details: string | Record<string, string>[] | null = null,
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

export const parseError = (message: string, details: string | null = null) =>
  new RestError(400, 'PGRST100', message, details);

export const tableNotFound = (table: string) =>
  new RestError(404, 'PGRST205', `Could not find the table 'public.${table}' in the schema cache`);

export const columnNotFound = (table: string, column: string) =>
  new RestError(400, '42703', `column ${table}.${column} does not exist`);

/**
 * SQLSTATE -> HTTP status, as PostgREST maps them (docs: Errors, HTTP status codes). What is not
 * listed is the client's doing (bad value, failed check...): 400.
 */
function statusFor(code: string): number {
  if (code === '23505' || code === '23503') return 409;
  if (code === '42501') return 403;
  if (code === '42P01' || code === '42883') return 404;
  if (code === '25006') return 405;
  if (code === 'P0001') return 400;
  // Deviations from PostgREST (500 for both): a statement cancelled by the statement timeout and
  // a statement too complex or too long (54: too many columns, nesting past the stack depth) are
  // what the request asked for; README.md "Limits"
  if (code === '57014') return 400;
  if (code.startsWith('54')) return 400;
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
  /** set on errors PostgreSQL (or PGlite) reported; absent on the areas' own validation errors */
  severity?: string;
  /** the error's context: 'PL/pgSQL function f() line 3 at RAISE' for a RAISE in our own SQL */
  where?: string;
  column?: string;
  constraint?: string;
  table?: string;
}

/**
 * Whether the message is PostgreSQL's own wording ('invalid input syntax for type uuid: "x"',
 * 'null value in column "events" of relation ...'), as opposed to a message a person wrote: the
 * areas' validation errors and the RAISE EXCEPTIONs of our SQL functions and triggers.
 */
function isDatabaseWording(e: PgLikeError): boolean {
  if (!e.severity) return false;
  const innermost = (e.where ?? '').split('\n', 1)[0];
  return !/ at RAISE$/.test(innermost);
}

const KEY_OF_DETAIL = /^Key \((.+?)\)=/;

/**
 * A sentence for a person instead of PostgreSQL's wording, by SQLSTATE. PostgREST sends the
 * database's text; a console must not show it (seed 000 section 8), so the code and status stay
 * PostgREST's and the database's own text moves to `details`, for whoever reads the API.
 */
function plainMessage(e: PgLikeError): string {
  const code = e.code ?? '';
  const key = KEY_OF_DETAIL.exec(e.detail ?? '')?.[1];
  switch (code) {
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
    case '22023': {
      const m = /for type ([\w ]+?): "(.*)"$/.exec(e.message ?? '');
      return m ? `"${m[2]}" is not a valid ${m[1]}` : 'A value has the wrong format';
    }
    case '22001':
      return 'A value is too long';
    case '23502':
      return e.column ? `${e.column} is required` : 'A required value is missing';
    case '23505':
      return key ? `A record with this ${key} already exists` : 'A record with these values already exists';
    case '23503':
      return /still referenced/.test(e.detail ?? '')
        ? 'Other records still refer to this one'
        : key
          ? `${key} refers to a record that does not exist`
          : 'It refers to a record that does not exist';
    case '23514': {
      const column =
        e.table &&
        e.constraint?.startsWith(`${e.table}_`) &&
        /^(.+)_check$/.exec(e.constraint.slice(e.table.length + 1))?.[1];
      // a constraint named for a person (0175: comment_at_most_10000_characters) says which rule
      if (column) return `${column} is not valid`;
      return e.constraint ? `A value is not allowed (${e.constraint})` : 'A value is not allowed';
    }
    case '42501':
      return 'Permission denied';
    case '42704': {
      // a cast to a type PostgreSQL does not know (`select=id::nosuchtype`)
      const m = /^type "(.*)" does not exist$/.exec(e.message ?? '');
      return m ? `There is no type named "${m[1]}"` : 'Something the request names does not exist';
    }
    case '57014':
      return 'The request took too long and was cancelled';
    case '40001':
    case '40P01':
      return 'The change collided with another one; please try again';
  }
  if (code.startsWith('22')) return 'A value is not valid';
  if (code.startsWith('23')) return 'The change breaks a rule of the data';
  if (/^(08|53|57)/.test(code)) return 'The database is not available; please try again';
  return 'The database could not carry out the request';
}

export function fromDatabaseError(err: unknown): RestError {
  if (err instanceof RestError) return err;
  const e = err as PgLikeError;
  // the connection failed, not the statement (a restart, a terminated backend: 57P01-57P03, or
  // a socket error without a SQLSTATE): try again later
  const sqlstate = e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined;
  if ((!sqlstate || /^57P0[123]$/.test(sqlstate)) && isConnectionError(err)) {
    return new RestError(
      503,
      'PGRST001',
      'Database client error: the connection to the database was lost or refused',
      null,
      'Try again in a moment.',
    );
  }
  if (sqlstate) {
    if (isDatabaseWording(e)) {
      const raw = [e.message, e.detail].filter(Boolean).join(' ');
      return new RestError(statusFor(sqlstate), sqlstate, plainMessage(e), raw || null, e.hint ?? null);
    }
    return new RestError(
      statusFor(sqlstate),
      sqlstate,
      e.message ?? 'database error',
      e.detail ?? null,
      e.hint ?? null,
    );
  }
  return new RestError(500, 'PGRST000', 'internal error');
}
