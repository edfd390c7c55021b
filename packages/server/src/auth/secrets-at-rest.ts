import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/index.ts';

/**
 * TOTP secrets must be kept readable (a code is computed from them), so unlike passwords they
 * cannot be hashed: they are encrypted at rest with the key of connection secrets
 * (WATCHDECK_SECRET_KEY, AES-256-GCM; app.ts hands the box in). That covers the credential
 * (identity_credentials.config.secret) and the secret a settings flow offers before it is
 * confirmed (identity_flows.internal_context.totp_secret). A database dump alone then yields no
 * second factor.
 */
export interface SecretSealer {
  encrypt(plain: string): string;
  /** returns a value that is not encrypted as it is; throws when the key does not fit */
  decrypt(stored: string): string;
}

// otplib secrets are base32; the sealed form ('enc:v1:...') never is, so this tells them apart
const PLAIN_TOTP = /^[A-Z2-7]+=*$/;

export const sealTotpSecret = (box: SecretSealer, plain: string) => box.encrypt(plain);

/** The plain secret, or undefined when it cannot be decrypted (the key was changed). */
export function openTotpSecret(box: SecretSealer, stored: string): string | undefined {
  try {
    return box.decrypt(stored);
  } catch {
    return undefined;
  }
}

/**
 * Encrypts the TOTP secrets older versions stored in clear. Runs at every start; each row is
 * rewritten only while it still holds the plain value it was read with, so replicas starting
 * together cannot encrypt one twice.
 */
export async function sealPlainTotpSecrets(q: Queryable, box: SecretSealer, log: FastifyBaseLogger): Promise<void> {
  const creds = await q.query<{ id: string; secret: string }>(
    `SELECT id, config->>'secret' AS secret FROM identity_credentials WHERE type = 'totp' AND config->>'secret' IS NOT NULL`,
  );
  let sealed = 0;
  for (const c of creds.rows) {
    if (!PLAIN_TOTP.test(c.secret)) continue;
    const r = await q.query(
      `UPDATE identity_credentials SET config = jsonb_set(config, '{secret}', to_jsonb($2::text))
        WHERE id = $1 AND config->>'secret' = $3`,
      [c.id, box.encrypt(c.secret), c.secret],
    );
    sealed += r.rowCount;
  }
  const flows = await q.query<{ id: string; secret: string }>(
    `SELECT id, internal_context->>'totp_secret' AS secret FROM identity_flows
      WHERE internal_context->>'totp_secret' IS NOT NULL`,
  );
  for (const f of flows.rows) {
    if (!PLAIN_TOTP.test(f.secret)) continue;
    await q.query(
      `UPDATE identity_flows SET internal_context = jsonb_set(internal_context, '{totp_secret}', to_jsonb($2::text))
        WHERE id = $1 AND internal_context->>'totp_secret' = $3`,
      [f.id, box.encrypt(f.secret), f.secret],
    );
  }
  if (sealed) log.info({ count: sealed }, 'auth: encrypted TOTP secrets that were stored in clear');
}
