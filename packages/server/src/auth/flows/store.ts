/**
 * Persistence of self-service flows (identity_flows). A flow is the server-side state of one form
 * the browser is filling in: its CSRF token, where to go afterwards, the assurance level asked for,
 * and whatever the steps so far produced (a pending TOTP secret, a WebAuthn challenge, the number
 * of wrong codes). The browser only ever sees the rendered form, never internal_context.
 */
import type { Db, Queryable } from '#server/db/index.ts';
import { randomToken } from '../crypto.ts';
import type { UiText } from './ui.ts';

export type FlowType = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

/** One hour, like Kratos: long enough to find the second factor, short enough to go stale. */
const FLOW_TTL_MS = 60 * 60_000;

export interface FlowInternal {
  /** sha256 of the CSRF cookie the flow is bound to; absent for flows created server-side (invites) */
  csrf_cookie_hash?: string;
  /** the TOTP secret offered for enrolment, sealed like the credential (secrets-at-rest.ts) */
  totp_secret?: string;
  lookup_pending?: string[];
  /** the WebAuthn options shown with this flow; their challenge is what the key must sign */
  webauthn_options?: Record<string, unknown> & { challenge: string };
  code_attempts?: number;
  address?: string;
}

/** What the last submission left for the form: flow messages, per-field messages and values. */
export interface FlowUiState {
  messages?: UiText[];
  fields?: Record<string, { value?: string; messages?: UiText[] }>;
}

export interface FlowRow {
  id: string;
  type: FlowType;
  identity_id: string | null;
  state: string;
  csrf_token: string;
  request_url: string | null;
  return_to: string | null;
  requested_aal: 'aal1' | 'aal2' | null;
  refresh: boolean;
  ui: FlowUiState;
  internal_context: FlowInternal;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, type, identity_id, state, csrf_token, request_url, return_to, requested_aal, refresh, ui,
  internal_context, expires_at, created_at, updated_at`;

export interface NewFlow {
  type: FlowType;
  identityId?: string | null;
  state?: string;
  requestUrl?: string;
  returnTo?: string | null;
  requestedAal?: 'aal1' | 'aal2';
  refresh?: boolean;
  internal?: FlowInternal;
  ttlMs?: number;
  /** the hashed client address a browser's flow counts against (insertClientFlow) */
  clientHash?: string;
}

export async function insertFlow(q: Queryable, f: NewFlow): Promise<FlowRow> {
  const r = await q.query<FlowRow>(
    `INSERT INTO identity_flows (type, identity_id, state, csrf_token, request_url, return_to, requested_aal, refresh, internal_context, expires_at, client_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11) RETURNING ${COLUMNS}`,
    [
      f.type,
      f.identityId ?? null,
      f.state ?? 'choose_method',
      randomToken(32),
      f.requestUrl ?? null,
      f.returnTo ?? null,
      f.requestedAal ?? 'aal1',
      f.refresh ?? false,
      JSON.stringify(f.internal ?? {}),
      new Date(Date.now() + (f.ttlMs ?? FLOW_TTL_MS)).toISOString(),
      f.clientHash ?? null,
    ],
  );
  return r.rows[0];
}

/**
 * Inserts a flow a browser asked for, keeping at most `cap` flows per client address: at the cap,
 * that address's expired flows go first, then its oldest flows never used since they were made
 * (a form opened and abandoned). Answers undefined, writing nothing, when all of them are in use.
 * Serialised per address, so concurrent requests cannot overshoot the cap.
 */
export async function insertClientFlow(
  db: Db,
  f: NewFlow & { clientHash: string },
  cap: number,
): Promise<FlowRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [f.clientHash]);
    const count = async () =>
      (
        await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity_flows WHERE client_hash = $1`, [
          f.clientHash,
        ])
      ).rows[0].n;
    let n = await count();
    if (n >= cap) {
      await tx.query(`DELETE FROM identity_flows WHERE client_hash = $1 AND expires_at <= now()`, [f.clientHash]);
      n = await count();
    }
    if (n >= cap) {
      // updated_at moves with every submission, so equal stamps mean the flow was never used
      await tx.query(
        `DELETE FROM identity_flows WHERE id IN (
           SELECT id FROM identity_flows WHERE client_hash = $1 AND updated_at = created_at
            ORDER BY created_at LIMIT $2)`,
        [f.clientHash, n - cap + 1],
      );
      n = await count();
    }
    if (n >= cap) return undefined;
    return insertFlow(tx, f);
  });
}

export async function loadFlow(q: Queryable, id: string, type: FlowType): Promise<FlowRow | undefined> {
  const r = await q.query<FlowRow>(`SELECT ${COLUMNS} FROM identity_flows WHERE id = $1 AND type = $2`, [id, type]);
  return r.rows[0];
}

/** Row-locks the flow for one submission so two concurrent posts cannot both use one code. */
export async function lockFlow(q: Queryable, id: string, type: FlowType): Promise<FlowRow | undefined> {
  const r = await q.query<FlowRow>(`SELECT ${COLUMNS} FROM identity_flows WHERE id = $1 AND type = $2 FOR UPDATE`, [
    id,
    type,
  ]);
  return r.rows[0];
}

export async function updateFlow(
  q: Queryable,
  id: string,
  patch: { state?: string; ui?: FlowUiState; internal?: FlowInternal; identityId?: string },
): Promise<FlowRow> {
  const r = await q.query<FlowRow>(
    `UPDATE identity_flows SET
       state = COALESCE($2, state),
       ui = COALESCE($3::jsonb, ui),
       internal_context = COALESCE($4::jsonb, internal_context),
       identity_id = COALESCE($5, identity_id)
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      patch.state ?? null,
      patch.ui ? JSON.stringify(patch.ui) : null,
      patch.internal ? JSON.stringify(patch.internal) : null,
      patch.identityId ?? null,
    ],
  );
  return r.rows[0];
}

export function isExpired(flow: FlowRow, now = Date.now()): boolean {
  return new Date(flow.expires_at).getTime() <= now;
}
