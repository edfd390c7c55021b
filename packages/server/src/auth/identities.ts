/**
 * Identities of the own identity service. An identity shares its id with the person it signs in
 * as (people.id), so roles, teams and created_by all point at the same uuid. Secrets live in
 * identity_credentials, one row per method; this module is the only one that reads them.
 */
import type { Queryable } from '../db/index.ts';
import { effectiveRoles } from '@watchdeck/core';
import { hashPassword } from './password.ts';

export interface Traits {
  email: string;
  name: { first: string; last: string };
}

export interface Identity {
  id: string;
  schema_id: string;
  state: 'active' | 'inactive';
  state_changed_at: string;
  traits: Traits;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export type CredentialType = 'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'oidc';

const IDENTITY_COLUMNS = `i.id, i.schema_id, i.state, i.state_changed_at, i.traits, i.verified_at, i.created_at, i.updated_at`;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function fullName(traits: Traits): string {
  return `${traits.name.first} ${traits.name.last}`.trim() || traits.email;
}

/** Active or not; a soft-deleted person's identity is never found. */
export async function findIdentityByEmail(q: Queryable, email: string): Promise<Identity | undefined> {
  const r = await q.query<Identity>(
    `SELECT ${IDENTITY_COLUMNS} FROM identities i JOIN people p ON p.id = i.id
      WHERE lower(i.traits->>'email') = $1 AND p.deleted_at IS NULL`,
    [normaliseEmail(email)],
  );
  return r.rows[0];
}

export async function getIdentity(q: Queryable, id: string): Promise<Identity | undefined> {
  const r = await q.query<Identity>(
    `SELECT ${IDENTITY_COLUMNS} FROM identities i JOIN people p ON p.id = i.id WHERE i.id = $1 AND p.deleted_at IS NULL`,
    [id],
  );
  return r.rows[0];
}

/** Creates the person, its identity, its roles and (optionally) its password in one go. */
export async function createIdentity(
  q: Queryable,
  input: { traits: Traits; roles?: string[]; password?: string; verified?: boolean },
): Promise<Identity> {
  const traits: Traits = {
    email: normaliseEmail(input.traits.email),
    name: { first: input.traits.name.first.trim(), last: input.traits.name.last.trim() },
  };
  await releaseDeletedEmail(q, traits.email);
  const person = await q.query<{ id: string }>(
    `INSERT INTO people (name, email, type) VALUES ($1, $2, 'person') RETURNING id`,
    [fullName(traits), traits.email],
  );
  const id = person.rows[0].id;
  await q.query(`INSERT INTO identities (id, traits, verified_at) VALUES ($1, $2::jsonb, $3)`, [
    id,
    JSON.stringify(traits),
    input.verified ? new Date().toISOString() : null,
  ]);
  await q.query(`INSERT INTO people_roles (id, roles) VALUES ($1, $2)`, [id, input.roles ?? []]);
  if (input.password !== undefined) await setPassword(q, id, traits.email, input.password);
  return (await getIdentity(q, id))!;
}

/**
 * A deleted person keeps their people row (history points at it) but gives up their sign-in
 * identity, so the address can be invited again. Credentials, sessions and codes go with it.
 */
async function releaseDeletedEmail(q: Queryable, email: string): Promise<void> {
  await q.query(
    `DELETE FROM identities i USING people p
      WHERE p.id = i.id AND p.deleted_at IS NOT NULL AND lower(i.traits->>'email') = $1`,
    [normaliseEmail(email)],
  );
}

/** Updates traits and keeps the person's name and email in step with them. */
export async function updateTraits(q: Queryable, id: string, traits: Traits): Promise<void> {
  const email = normaliseEmail(traits.email);
  const t: Traits = { email, name: { first: traits.name.first.trim(), last: traits.name.last.trim() } };
  const before = await q.query<{ email: string }>(`SELECT traits->>'email' AS email FROM identities WHERE id = $1`, [
    id,
  ]);
  const emailChanged = before.rows[0]?.email !== email;
  if (emailChanged) await releaseDeletedEmail(q, email);
  await q.query(
    `UPDATE identities SET traits = $2::jsonb, verified_at = CASE WHEN $3 THEN NULL ELSE verified_at END WHERE id = $1`,
    [id, JSON.stringify(t), emailChanged],
  );
  await q.query(`UPDATE people SET name = $2, email = $3 WHERE id = $1`, [id, fullName(t), email]);
  // the password credential is found by its identifier: keep it pointing at the new address
  await q.query(
    `UPDATE identity_credentials SET identifiers = ARRAY[$2] WHERE identity_id = $1 AND type = 'password'`,
    [id, email],
  );
}

export async function getCredential<T = Record<string, unknown>>(
  q: Queryable,
  identityId: string,
  type: CredentialType,
): Promise<{ id: string; config: T; created_at: string } | undefined> {
  const r = await q.query<{ id: string; config: T; created_at: string }>(
    `SELECT id, config, created_at FROM identity_credentials WHERE identity_id = $1 AND type = $2`,
    [identityId, type],
  );
  return r.rows[0];
}

export async function saveCredential(
  q: Queryable,
  identityId: string,
  type: CredentialType,
  config: unknown,
  identifiers: string[] = [],
) {
  await q.query(
    `INSERT INTO identity_credentials (identity_id, type, config, identifiers) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (identity_id, type) DO UPDATE SET config = EXCLUDED.config, identifiers = EXCLUDED.identifiers,
       version = identity_credentials.version + 1`,
    [identityId, type, JSON.stringify(config), identifiers],
  );
}

export async function deleteCredential(q: Queryable, identityId: string, type: CredentialType) {
  await q.query(`DELETE FROM identity_credentials WHERE identity_id = $1 AND type = $2`, [identityId, type]);
}

export async function setPassword(q: Queryable, identityId: string, email: string, password: string) {
  await saveCredential(q, identityId, 'password', { hashed_password: await hashPassword(password) }, [
    normaliseEmail(email),
  ]);
}

export interface LookupConfig {
  codes: { hash: string; used_at: string | null }[];
}
export interface WebauthnKey {
  id: string; // base64url credential id
  public_key: string; // base64url COSE key
  counter: number;
  transports?: string[];
  display_name: string;
  added_at: string;
}
export interface WebauthnConfig {
  credentials: WebauthnKey[];
}

/** Which second factors an identity has set up; they decide whether aal2 is available. */
export async function secondFactors(
  q: Queryable,
  identityId: string,
): Promise<{ totp: boolean; lookup: number; webauthn: number }> {
  const r = await q.query<{ type: CredentialType; config: Record<string, unknown> }>(
    `SELECT type, config FROM identity_credentials WHERE identity_id = $1 AND type IN ('totp', 'lookup_secret', 'webauthn')`,
    [identityId],
  );
  const out = { totp: false, lookup: 0, webauthn: 0 };
  for (const row of r.rows) {
    if (row.type === 'totp') out.totp = true;
    if (row.type === 'lookup_secret')
      out.lookup = ((row.config as unknown as LookupConfig).codes ?? []).filter((c) => !c.used_at).length;
    if (row.type === 'webauthn') out.webauthn = ((row.config as unknown as WebauthnConfig).credentials ?? []).length;
  }
  return out;
}

/** aal2 when the identity has any second factor: a password-only session is then not enough. */
export async function highestAal(q: Queryable, identityId: string): Promise<'aal1' | 'aal2'> {
  const f = await secondFactors(q, identityId);
  return f.totp || f.lookup > 0 || f.webauthn > 0 ? 'aal2' : 'aal1';
}

/** The stored roles of a person (possibly empty). Read fresh every time: roles are not cached. */
export async function storedRoles(q: Queryable, personId: string): Promise<string[]> {
  const r = await q.query<{ roles: string[] }>(`SELECT roles FROM people_roles WHERE id = $1`, [personId]);
  return r.rows[0]?.roles ?? [];
}

export async function rolesOf(q: Queryable, personId: string): Promise<string[]> {
  return effectiveRoles(await storedRoles(q, personId));
}

export async function setRoles(q: Queryable, personId: string, roles: string[]): Promise<void> {
  await q.query(
    `INSERT INTO people_roles (id, roles) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET roles = EXCLUDED.roles`,
    [personId, roles],
  );
}

/** The identity as the browser sees it (Kratos-like): traits and addresses, never credentials. */
export function identityJson(identity: Identity) {
  return {
    id: identity.id,
    schema_id: identity.schema_id,
    state: identity.state,
    state_changed_at: identity.state_changed_at,
    traits: identity.traits,
    verifiable_addresses: [
      {
        value: identity.traits.email,
        via: 'email',
        verified: identity.verified_at !== null,
        verified_at: identity.verified_at,
        status: identity.verified_at ? 'completed' : 'pending',
      },
    ],
    recovery_addresses: [{ value: identity.traits.email, via: 'email' }],
    created_at: identity.created_at,
    updated_at: identity.updated_at,
  };
}
