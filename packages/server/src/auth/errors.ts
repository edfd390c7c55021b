import { STATUS_CODES } from 'node:http';
import type { Queryable } from '../db/index.ts';

/**
 * The identity service's error catalogue. Ids and the messages the seeds quote are part of the
 * contract with the web app (seed 002 sections 4 and 8), so they live in one table here.
 */
const AUTH_ERRORS = {
  self_service_flow_expired: { code: 410, message: 'Your interaction expired, please fill out the form again.' },
  security_csrf_violation: { code: 403, message: 'A security violation was detected, please fill out the form again.' },
  self_service_flow_return_to_forbidden: { code: 400, message: 'The return_to address is not allowed.' },
  session_aal2_required: {
    code: 403,
    message:
      'An active session was found but it does not fulfil the required authenticator assurance level: complete the second factor.',
  },
  session_already_available: {
    code: 400,
    message: 'A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?',
  },
  session_refresh_required: {
    code: 403,
    message: 'The login session is too old and thus not allowed to update these fields. Please re-authenticate.',
  },
  session_inactive: { code: 401, message: 'No active session was found in this request.' },
  browser_location_change_required: {
    code: 422,
    message: 'In order to complete this flow please redirect the browser.',
  },
  security_identity_mismatch: {
    code: 403,
    message: 'The flow was interrupted because the session does not belong to the identity that started it.',
  },
  self_service_flow_disabled: { code: 403, message: 'This flow is disabled on this server.' },
  not_found: { code: 404, message: 'The requested resource could not be found.' },
  bad_request: { code: 400, message: 'The request was malformed or contained invalid parameters.' },
  /** the login flow's brute-force brake (login-throttle.ts); Retry-After says when to come back */
  too_many_attempts: {
    code: 429,
    message: 'Too many failed sign-in attempts. Please wait a few minutes before trying again.',
  },
  /** the brakes on new flows per client address (flows/engine.ts); Retry-After says when */
  too_many_requests: {
    code: 429,
    message: 'Too many requests from this address. Please wait a moment before trying again.',
  },
} as const;

export type AuthErrorId = keyof typeof AUTH_ERRORS;

export interface AuthErrorBody {
  /** id of the stored copy, fetchable at GET /api/auth/errors/:id (flow errors only) */
  id?: string;
  error: {
    id: AuthErrorId;
    code: number;
    status: string;
    reason?: string;
    message: string;
    details?: Record<string, unknown>;
  };
  /** the same text as error.message, for clients that only look at `message` */
  message: string;
  redirect_browser_to?: string;
  use_flow_id?: string;
  created_at?: string;
}

/** Thrown anywhere in the identity service; the error handler turns it into the JSON above. */
export class AuthError extends Error {
  readonly errorId: AuthErrorId;
  readonly statusCode: number;
  readonly reason?: string;
  readonly details?: Record<string, unknown>;
  redirectBrowserTo?: string;
  useFlowId?: string;
  /**
   * Answered but not stored: the flood brakes' refusals must not write the very rows they
   * protect the database from (a stored error is a row too).
   */
  readonly ephemeral: boolean;

  constructor(
    id: AuthErrorId,
    opts: {
      reason?: string;
      details?: Record<string, unknown>;
      redirectBrowserTo?: string;
      useFlowId?: string;
      ephemeral?: boolean;
    } = {},
  ) {
    super(AUTH_ERRORS[id].message);
    this.errorId = id;
    this.statusCode = AUTH_ERRORS[id].code;
    this.reason = opts.reason;
    this.details = opts.details;
    this.redirectBrowserTo = opts.redirectBrowserTo;
    this.useFlowId = opts.useFlowId;
    this.ephemeral = opts.ephemeral ?? false;
  }

  toBody(): AuthErrorBody {
    const body: AuthErrorBody = {
      error: {
        id: this.errorId,
        code: this.statusCode,
        status: STATUS_CODES[this.statusCode] ?? 'Error',
        message: this.message,
        ...(this.reason ? { reason: this.reason } : {}),
        ...(this.details ? { details: this.details } : {}),
      },
      message: this.message,
    };
    if (this.redirectBrowserTo) body.redirect_browser_to = this.redirectBrowserTo;
    if (this.useFlowId) body.use_flow_id = this.useFlowId;
    return body;
  }
}

/**
 * Self-service flow errors are stored so a browser that was sent to the error page can fetch
 * them by id (seed 000 section 2, "Flow-error page"). Rows are pruned with the expired flows.
 */
export async function storeFlowError(q: Queryable, err: AuthError): Promise<AuthErrorBody> {
  const body = err.toBody();
  const r = await q.query<{ id: string; created_at: string }>(
    `INSERT INTO identity_errors (error) VALUES ($1::jsonb) RETURNING id, created_at`,
    [JSON.stringify(body)],
  );
  return { id: r.rows[0].id, ...body, created_at: r.rows[0].created_at };
}

export async function loadFlowError(q: Queryable, id: string): Promise<AuthErrorBody | undefined> {
  const r = await q.query<{ id: string; error: AuthErrorBody; created_at: string }>(
    `SELECT id, error, created_at FROM identity_errors WHERE id = $1`,
    [id],
  );
  const row = r.rows[0];
  return row ? { id: row.id, ...row.error, created_at: row.created_at } : undefined;
}
