import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { randomToken } from './crypto.ts';
import { createIdentity, findIdentityByEmail, setPassword, setRoles, storedRoles } from './identities.ts';
import { passwordPolicyViolation } from './password.ts';

/**
 * First run: with sign-in on and no administrator able to sign in (nobody holds the admin role
 * with an active identity and a password; the demo data's admin has no credentials), create the
 * admin account from WATCHDECK_ADMIN_EMAIL / WATCHDECK_ADMIN_PASSWORD. Without a password one is
 * generated and printed this once, as a plain block on stdout (`print`) for the person starting
 * the server: never in a log line, where it would travel to log collectors. It is not stored
 * anywhere in clear. Replicas starting together serialise on an advisory lock, so exactly one
 * creates the account.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Pick<Config, 'authMode' | 'adminEmail' | 'adminPassword'>,
  log: FastifyBaseLogger,
  print: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<'created' | 'exists' | 'skipped'> {
  // AUTH=oidc: administrators come from the provider's claims (WATCHDECK_OIDC_ROLE_MAP)
  if (config.authMode !== 'kratos') return 'skipped';
  if (config.adminPassword) {
    const problem = passwordPolicyViolation(config.adminPassword);
    if (problem) throw new Error(`WATCHDECK_ADMIN_PASSWORD: ${problem}`);
  }
  const generated = config.adminPassword ? undefined : randomToken(18);
  const password = config.adminPassword ?? generated!;

  const outcome = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(727275)');
    const admins = await tx.query(
      `SELECT 1 FROM people_roles r
         JOIN people p ON p.id = r.id
         JOIN identities i ON i.id = p.id
         JOIN identity_credentials c ON c.identity_id = i.id AND c.type = 'password'
        WHERE 'admin' = ANY(r.roles) AND p.deleted_at IS NULL AND i.state = 'active' LIMIT 1`,
    );
    if (admins.rows.length) return 'exists' as const;
    const existing = await findIdentityByEmail(tx, config.adminEmail);
    if (existing) {
      // the address already has an account (e.g. an admin demoted by hand): make it admin again
      await setRoles(tx, existing.id, [...new Set([...(await storedRoles(tx, existing.id)), 'admin'])]);
      await setPassword(tx, existing.id, existing.traits.email, password);
    } else {
      await createIdentity(tx, {
        traits: { email: config.adminEmail, name: { first: 'Watchdeck', last: 'Admin' } },
        roles: ['admin'],
        password,
        verified: true,
      });
    }
    return 'created' as const;
  });

  if (outcome === 'created') {
    if (generated) {
      print(firstRunBlock(config.adminEmail, generated));
      log.warn(
        { email: config.adminEmail },
        'first run: created the admin account with a generated password, printed once on stdout (not logged); sign in and change it',
      );
    } else {
      log.info(
        { email: config.adminEmail },
        'first run: created the admin account from WATCHDECK_ADMIN_EMAIL / WATCHDECK_ADMIN_PASSWORD',
      );
    }
  }
  return outcome;
}

/** The block printed on stdout: plain text a person can copy the password from. */
function firstRunBlock(email: string, password: string): string {
  const rule = '='.repeat(72);
  return [
    '',
    rule,
    '  Watchdeck first run: an administrator account was created.',
    '',
    `    email:     ${email}`,
    `    password:  ${password}`,
    '',
    '  This password is shown only this once. Sign in and change it',
    '  (or set WATCHDECK_ADMIN_PASSWORD before the first start).',
    rule,
    '',
    '',
  ].join('\n');
}
