/**
 * Sessions signed in through the OpenID Connect provider: the ordinary identity_sessions rows
 * (hashed cookie token, expiry, revocation) plus the provider's refresh and ID tokens, sealed
 * with the secrets key, and when the provider's access token runs out (migration 0310).
 */
import type { Queryable } from '../db/index.ts';
import type { Person } from './caller.ts';
import { sha256 } from './crypto.ts';
import type { SecretSealer } from './secrets-at-rest.ts';

export interface ProviderTokens {
  refresh_token?: string;
  /** kept for the provider's logout (id_token_hint) */
  id_token?: string;
}

export interface OidcSession {
  id: string;
  personId: string;
  person: Person;
  storedRoles: string[];
  /** sealed ProviderTokens */
  providerTokens: string | null;
  providerExpiresAt: Date | null;
}

/**
 * The live session behind a cookie value (unexpired, not revoked, identity active, person not
 * deleted), or undefined; `evenExpired` also finds an expired one (sign-out still revokes it).
 */
export async function findOidcSession(
  q: Queryable,
  token: string,
  opts: { evenExpired?: boolean } = {},
): Promise<OidcSession | undefined> {
  const r = await q.query<{
    id: string;
    person_id: string;
    name: string;
    email: string | null;
    avatar: string | null;
    roles: string[];
    provider_tokens: string | null;
    provider_expires_at: string | Date | null;
  }>(
    `SELECT s.id, p.id AS person_id, p.name, p.email, p.avatar, COALESCE(r.roles, '{}') AS roles,
            s.provider_tokens, s.provider_expires_at
       FROM identity_sessions s
       JOIN identities i ON i.id = s.identity_id
       JOIN people p ON p.id = i.id
       LEFT JOIN people_roles r ON r.id = p.id
      WHERE s.token_hash = $1 AND s.active AND ($2 OR s.expires_at > now())
        AND i.state = 'active' AND p.deleted_at IS NULL`,
    [sha256(token), opts.evenExpired ?? false],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    personId: row.person_id,
    person: { id: row.person_id, name: row.name, email: row.email, avatar: row.avatar },
    storedRoles: row.roles,
    providerTokens: row.provider_tokens,
    providerExpiresAt: row.provider_expires_at ? new Date(row.provider_expires_at) : null,
  };
}

export async function saveProviderTokens(
  q: Queryable,
  box: SecretSealer,
  sessionId: string,
  tokens: ProviderTokens,
  expiresAt: Date,
): Promise<void> {
  await q.query(`UPDATE identity_sessions SET provider_tokens = $2, provider_expires_at = $3 WHERE id = $1`, [
    sessionId,
    box.encrypt(JSON.stringify(tokens)),
    expiresAt.toISOString(),
  ]);
}

/** The session's provider tokens, or undefined when there are none or the key changed. */
export function openProviderTokens(box: SecretSealer, sealed: string | null): ProviderTokens | undefined {
  if (!sealed) return undefined;
  try {
    return JSON.parse(box.decrypt(sealed)) as ProviderTokens;
  } catch {
    return undefined;
  }
}
