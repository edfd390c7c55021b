/**
 * Sessions: the cookie carries a random token, the database only its SHA-256, so a database dump
 * cannot be replayed as cookies. A session is aal1 after a password (or a recovery code) and aal2
 * once a second factor was presented in the same session.
 */
import type { Queryable } from '../db/index.ts';
import { randomToken, sha256 } from './crypto.ts';
import { getIdentity, identityJson, type Identity } from './identities.ts';
import { pruneLoginFailures } from './login-throttle.ts';

export type Aal = 'aal1' | 'aal2';
export type AuthMethod =
  'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'code_recovery' | 'link_recovery' | 'oidc';

export interface Session {
  id: string;
  identity_id: string;
  aal: Aal;
  authentication_methods: { method: AuthMethod; aal: Aal; completed_at: string }[];
  active: boolean;
  authenticated_at: string;
  issued_at: string;
  expires_at: string;
}

const COLUMNS = `id, identity_id, aal, authentication_methods, active, authenticated_at, issued_at, expires_at`;

/** How long a sign-in counts as recent enough to change credentials without signing in again. */
const PRIVILEGED_SESSION_MS = 15 * 60_000;

export async function createSession(
  q: Queryable,
  identityId: string,
  opts: { method: AuthMethod; ttlMs: number; userAgent?: string; ip?: string },
): Promise<{ token: string; session: Session }> {
  const token = randomToken(32);
  const now = new Date();
  const methods = [{ method: opts.method, aal: 'aal1', completed_at: now.toISOString() }];
  const r = await q.query<Session>(
    `INSERT INTO identity_sessions (identity_id, token_hash, aal, authentication_methods, devices, expires_at)
     VALUES ($1, $2, 'aal1', $3::jsonb, $4::jsonb, $5) RETURNING ${COLUMNS}`,
    [
      identityId,
      sha256(token),
      JSON.stringify(methods),
      JSON.stringify([{ user_agent: opts.userAgent ?? null, ip_address: opts.ip ?? null }]),
      new Date(now.getTime() + opts.ttlMs).toISOString(),
    ],
  );
  await q.query(`UPDATE people SET last_login = now() WHERE id = $1`, [identityId]);
  return { token, session: r.rows[0] };
}

/** A live session with everything a request needs to know about its owner, in one query. */
export interface SessionContext {
  session: Session;
  identity: Identity;
  person: { id: string; name: string; email: string | null; avatar: string | null };
  storedRoles: string[];
  /** the identity has a second factor, so aal2 is its highest level */
  hasSecondFactor: boolean;
}

/**
 * The live session for a cookie value (unexpired, not revoked, identity active, person not
 * deleted), or undefined. Runs on every signed-in request, hence one round trip.
 */
export async function findSessionContext(q: Queryable, token: string): Promise<SessionContext | undefined> {
  const r = await q.query<
    Session & {
      schema_id: string;
      state: 'active' | 'inactive';
      state_changed_at: string;
      traits: Identity['traits'];
      verified_at: string | null;
      identity_created_at: string;
      identity_updated_at: string;
      name: string;
      email: string | null;
      avatar: string | null;
      roles: string[];
      has_second_factor: boolean;
    }
  >(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `s.${c}`)
      .join(', ')},
            i.schema_id, i.state, i.state_changed_at, i.traits, i.verified_at,
            i.created_at AS identity_created_at, i.updated_at AS identity_updated_at,
            p.name, p.email, p.avatar, COALESCE(r.roles, '{}') AS roles,
            EXISTS (
              SELECT 1 FROM identity_credentials c
               WHERE c.identity_id = i.id
                 AND (c.type IN ('totp', 'webauthn')
                      OR (c.type = 'lookup_secret' AND EXISTS (
                            SELECT 1 FROM jsonb_array_elements(c.config->'codes') code WHERE code->>'used_at' IS NULL)))
            ) AS has_second_factor
       FROM identity_sessions s
       JOIN identities i ON i.id = s.identity_id
       JOIN people p ON p.id = i.id
       LEFT JOIN people_roles r ON r.id = p.id
      WHERE s.token_hash = $1 AND s.active AND s.expires_at > now()
        AND i.state = 'active' AND p.deleted_at IS NULL`,
    [sha256(token)],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    session: {
      id: row.id,
      identity_id: row.identity_id,
      aal: row.aal,
      authentication_methods: row.authentication_methods,
      active: row.active,
      authenticated_at: row.authenticated_at,
      issued_at: row.issued_at,
      expires_at: row.expires_at,
    },
    identity: {
      id: row.identity_id,
      schema_id: row.schema_id,
      state: row.state,
      state_changed_at: row.state_changed_at,
      traits: row.traits,
      verified_at: row.verified_at,
      created_at: row.identity_created_at,
      updated_at: row.identity_updated_at,
    },
    person: { id: row.identity_id, name: row.name, email: row.email, avatar: row.avatar },
    storedRoles: row.roles,
    hasSecondFactor: row.has_second_factor,
  };
}

export async function getSessionById(q: Queryable, id: string): Promise<Session | undefined> {
  const r = await q.query<Session>(`SELECT ${COLUMNS} FROM identity_sessions WHERE id = $1`, [id]);
  return r.rows[0];
}

/** Records a completed factor: a second factor lifts the session to aal2; a password refreshes it. */
export async function recordFactor(q: Queryable, sessionId: string, method: AuthMethod, aal: Aal): Promise<void> {
  const entry = JSON.stringify([{ method, aal, completed_at: new Date().toISOString() }]);
  await q.query(
    `UPDATE identity_sessions
        SET authentication_methods = authentication_methods || $2::jsonb,
            aal = CASE WHEN $3 = 'aal2' THEN 'aal2' ELSE aal END,
            authenticated_at = now()
      WHERE id = $1`,
    [sessionId, entry, aal],
  );
}

export async function revokeSession(q: Queryable, sessionId: string): Promise<void> {
  await q.query(`UPDATE identity_sessions SET active = false WHERE id = $1`, [sessionId]);
}

/** Signs a person out everywhere (user deleted, password reset), optionally keeping one session. */
export async function revokeAllSessions(q: Queryable, identityId: string, exceptSessionId?: string): Promise<void> {
  await q.query(
    `UPDATE identity_sessions SET active = false WHERE identity_id = $1 AND active AND ($2::uuid IS NULL OR id <> $2::uuid)`,
    [identityId, exceptSessionId ?? null],
  );
}

/** A one-off logout token for the logout flow; the session stores only its hash. */
export async function issueLogoutToken(q: Queryable, sessionId: string): Promise<string> {
  const token = randomToken(24);
  await q.query(`UPDATE identity_sessions SET logout_token_hash = $2 WHERE id = $1`, [sessionId, sha256(token)]);
  return token;
}

export async function revokeByLogoutToken(q: Queryable, token: string): Promise<boolean> {
  const r = await q.query(`UPDATE identity_sessions SET active = false WHERE logout_token_hash = $1 AND active`, [
    sha256(token),
  ]);
  return r.rowCount > 0;
}

export function isPrivileged(session: Session, now = Date.now()): boolean {
  return now - new Date(session.authenticated_at).getTime() < PRIVILEGED_SESSION_MS;
}

/** The session as the browser sees it (Kratos-like), with its identity. */
export async function sessionJson(q: Queryable, session: Session, identity?: Identity) {
  const id = identity ?? (await getIdentity(q, session.identity_id));
  return {
    id: session.id,
    active: session.active,
    expires_at: session.expires_at,
    authenticated_at: session.authenticated_at,
    authenticator_assurance_level: session.aal,
    authentication_methods: session.authentication_methods,
    issued_at: session.issued_at,
    identity: id ? identityJson(id) : null,
  };
}

/** Expired sessions, flows, codes and stored errors are kept a day for support, then pruned. */
export async function pruneExpired(q: Queryable): Promise<void> {
  await q.query(
    `DELETE FROM identity_sessions WHERE expires_at < now() - interval '1 day' OR (NOT active AND updated_at < now() - interval '1 day')`,
  );
  await q.query(`DELETE FROM identity_tokens WHERE expires_at < now() - interval '1 day'`);
  await q.query(`DELETE FROM identity_flows WHERE expires_at < now() - interval '1 day'`);
  await q.query(`DELETE FROM identity_errors WHERE created_at < now() - interval '7 days'`);
  await pruneLoginFailures(q);
}
