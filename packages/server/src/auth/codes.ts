/**
 * One-time secrets for recovery and verification (identity_tokens): six-digit codes sent by email
 * and long link tokens in invitations. Stored as a hash salted with the flow id, single use,
 * with an expiry; a flow's attempt counter (see the flows) stops guessing of the short codes.
 */
import type { Queryable } from '../db/index.ts';
import { numericCode, randomToken, sha256 } from './crypto.ts';

export type CodeType = 'recovery' | 'verification';

/** Emailed codes are short to type, so they live briefly. */
const CODE_TTL_MS = 15 * 60_000;
/** Invitation links wait for the invitee to read their mail. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;
/** Wrong codes tolerated per flow before its codes are voided. */
export const MAX_CODE_ATTEMPTS = 5;

const hashFor = (flowId: string, secret: string) => sha256(`${flowId}:${secret.trim()}`);

async function issue(
  q: Queryable,
  secret: string,
  o: { flowId: string; identityId: string; type: CodeType; address: string; ttlMs: number },
): Promise<string> {
  // only the newest secret of a flow is valid: resending voids the previous one
  await voidCodes(q, o.flowId);
  await q.query(
    `INSERT INTO identity_tokens (identity_id, flow_id, type, token_hash, address, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      o.identityId,
      o.flowId,
      o.type,
      hashFor(o.flowId, secret),
      o.address,
      new Date(Date.now() + o.ttlMs).toISOString(),
    ],
  );
  return secret;
}

export function issueCode(
  q: Queryable,
  o: { flowId: string; identityId: string; type: CodeType; address: string },
): Promise<string> {
  return issue(q, numericCode(6), { ...o, ttlMs: CODE_TTL_MS });
}

export function issueLinkToken(
  q: Queryable,
  o: { flowId: string; identityId: string; type: CodeType; address: string },
): Promise<string> {
  return issue(q, randomToken(32), { ...o, ttlMs: INVITE_TTL_MS });
}

/** Uses the secret once. Returns whom it was issued to, or undefined (wrong, used or expired). */
export async function consumeCode(
  q: Queryable,
  flowId: string,
  type: CodeType,
  secret: string,
): Promise<{ identityId: string; address: string | null } | undefined> {
  const r = await q.query<{ identity_id: string; address: string | null }>(
    `UPDATE identity_tokens SET used_at = now()
      WHERE flow_id = $1 AND type = $2 AND token_hash = $3 AND used_at IS NULL AND expires_at > now()
      RETURNING identity_id, address`,
    [flowId, type, hashFor(flowId, secret)],
  );
  const row = r.rows[0];
  return row ? { identityId: row.identity_id, address: row.address } : undefined;
}

export async function voidCodes(q: Queryable, flowId: string): Promise<void> {
  await q.query(`UPDATE identity_tokens SET used_at = now() WHERE flow_id = $1 AND used_at IS NULL`, [flowId]);
}
