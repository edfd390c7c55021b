/**
 * Who a provider's user is here: found by the provider's subject (an identity credential of type
 * 'oidc'), else by a verified email address (an account that existed before, e.g. invited), else
 * created. Roles follow the provider's claim at every sign-in (WATCHDECK_OIDC_ROLE_MAP), so a
 * group taken away at the provider takes the role away here too.
 */
import type { Role } from '@watchdeck/core';
import type { OidcSettings } from '../config.ts';
import type { Db } from '../db/index.ts';
import { AuthError } from './errors.ts';
import {
  createIdentity,
  findIdentityByEmail,
  normaliseEmail,
  saveCredential,
  setRoles,
  updateTraits,
} from './identities.ts';

/** The claims of the verified ID token, completed by the userinfo answer. */
export type Claims = { sub: string } & Record<string, unknown>;

/** The claim's value: the claim named so, else a dotted path into objects (realm_access.roles). */
function claimValue(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name];
  let v: unknown = claims;
  for (const part of name.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** The mapped roles of the claim's values (a list, or one string), else the default role. */
export function rolesFromClaims(
  claims: Claims,
  settings: Pick<OidcSettings, 'roleClaim' | 'roleMap' | 'defaultRole'>,
): Role[] {
  const raw = claimValue(claims, settings.roleClaim);
  const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const roles = new Set<Role>();
  for (const v of values) if (typeof v === 'string') for (const r of settings.roleMap[v] ?? []) roles.add(r);
  return roles.size ? [...roles] : [settings.defaultRole];
}

function namesOf(claims: Claims, email: string): { first: string; last: string } {
  const str = (k: string) => (typeof claims[k] === 'string' ? (claims[k] as string).trim() : '');
  if (str('given_name') || str('family_name')) return { first: str('given_name'), last: str('family_name') };
  const full = str('name') || str('preferred_username') || email.split('@')[0];
  const i = full.indexOf(' ');
  return i > 0 ? { first: full.slice(0, i), last: full.slice(i + 1).trim() } : { first: full, last: '' };
}

/**
 * The person the provider's user signs in as, created or linked on the way; roles set from the
 * claims. Refusals are AuthErrors the sign-in shows on the error page.
 */
export async function linkIdentity(db: Db, settings: OidcSettings, claims: Claims): Promise<string> {
  const subject = `${settings.issuer} ${claims.sub}`;
  const email = typeof claims.email === 'string' && claims.email.includes('@') ? normaliseEmail(claims.email) : '';
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  const roles = rolesFromClaims(claims, settings);

  return db.transaction(async (tx) => {
    const linked = await tx.query<{ id: string; state: string; deleted: boolean; email: string }>(
      `SELECT i.id, i.state, p.deleted_at IS NOT NULL AS deleted, i.traits->>'email' AS email
         FROM identity_credentials c JOIN identities i ON i.id = c.identity_id JOIN people p ON p.id = i.id
        WHERE c.type = 'oidc' AND c.identifiers[1] = $1`,
      [subject],
    );
    let id = linked.rows[0]?.id;
    if (linked.rows[0]) {
      if (linked.rows[0].deleted || linked.rows[0].state !== 'active')
        throw new AuthError('security_identity_mismatch', {
          reason: 'This account is deactivated. Please ask an administrator.',
        });
      // keep name and address in step with the provider, unless another account holds the address
      if (email) {
        const other = email === linked.rows[0].email ? undefined : await findIdentityByEmail(tx, email);
        if (!other) await updateTraits(tx, linked.rows[0].id, { email, name: namesOf(claims, email) });
      }
    } else {
      if (!email)
        throw new AuthError('security_identity_mismatch', {
          reason: 'The sign-in provider did not share an email address (is the "email" scope requested?).',
        });
      const existing = await findIdentityByEmail(tx, email);
      if (existing) {
        // Linking by address hands the account over: only when the provider vouches for it.
        if (!verified)
          throw new AuthError('security_identity_mismatch', {
            reason: `An account for ${email} exists, but the sign-in provider did not verify that address.`,
          });
        if (existing.state !== 'active')
          throw new AuthError('security_identity_mismatch', {
            reason: 'This account is deactivated. Please ask an administrator.',
          });
        const other = await tx.query(`SELECT 1 FROM identity_credentials WHERE identity_id = $1 AND type = 'oidc'`, [
          existing.id,
        ]);
        if (other.rows.length)
          throw new AuthError('security_identity_mismatch', {
            reason: `The account for ${email} is linked to another user of the sign-in provider.`,
          });
        id = existing.id;
      } else {
        id = (await createIdentity(tx, { traits: { email, name: namesOf(claims, email) }, verified })).id;
      }
      await saveCredential(tx, id, 'oidc', { issuer: settings.issuer, subject: claims.sub }, [subject]);
    }
    await setRoles(tx, id!, roles);
    return id!;
  });
}
