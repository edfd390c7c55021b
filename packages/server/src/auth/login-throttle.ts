/**
 * Brute-force brake for password sign-in, per identifier and client address: after
 * LOGIN_FAILURE_LIMIT wrong passwords within LOGIN_FAILURE_WINDOW_MS the login flow answers 429
 * without checking the password, until the oldest failure leaves the window. A success clears
 * the count. Unknown identifiers count the same way, so the brake does not reveal who exists.
 *
 * This sits under the per-address limit on all form posts (WATCHDECK_AUTH_RATE_LIMIT): that one
 * stops floods, this one stops slow guessing at one account. Counts live in the database so
 * every replica sees the same numbers.
 */
import type { Queryable } from '../db/index.ts';
import { sha256 } from './crypto.ts';
import { normaliseEmail } from './identities.ts';

export const LOGIN_FAILURE_LIMIT = 5;
const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

export function throttleKey(identifier: string, ip: string): string {
  return sha256(`login:${normaliseEmail(identifier)}|${ip}`);
}

/**
 * Seconds until the next attempt is allowed, or 0 when one may be made now. Takes a transaction
 * lock on the key so concurrent guesses are counted one after the other.
 */
export async function loginRetryAfter(q: Queryable, key: string): Promise<number> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
  // the newest LIMIT failures in the window: once there are that many, the count drops below the
  // limit when the last of them (the LIMIT-th newest) leaves the window
  const r = await q.query<{ failed_at: string }>(
    `SELECT failed_at FROM identity_login_failures
      WHERE key_hash = $1 AND failed_at > now() - $2 * interval '1 millisecond'
      ORDER BY failed_at DESC LIMIT $3`,
    [key, LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURE_LIMIT],
  );
  if (r.rows.length < LOGIN_FAILURE_LIMIT) return 0;
  const freeAt = new Date(r.rows[r.rows.length - 1].failed_at).getTime() + LOGIN_FAILURE_WINDOW_MS;
  return Math.max(1, Math.ceil((freeAt - Date.now()) / 1000));
}

export async function recordLoginFailure(q: Queryable, key: string): Promise<void> {
  await q.query(`INSERT INTO identity_login_failures (key_hash) VALUES ($1)`, [key]);
}

export async function clearLoginFailures(q: Queryable, key: string): Promise<void> {
  await q.query(`DELETE FROM identity_login_failures WHERE key_hash = $1`, [key]);
}

/**
 * The second step of a sign-in (TOTP code or backup code) has its own brake, per account rather
 * than per address: whoever reaches it already knows the password, and may come from many
 * addresses. FACTOR_FAILURE_LIMIT wrong codes are free; after that each further attempt waits
 * FACTOR_BACKOFF_BASE_MS doubled for every failure beyond the limit (1, 2, 4, ... minutes, at most
 * a day), counted over the last FACTOR_FAILURE_WINDOW_MS. A success clears the count. Security keys
 * cannot be guessed, so they stay usable while codes are locked.
 */
export const FACTOR_FAILURE_LIMIT = 5;
const FACTOR_FAILURE_WINDOW_MS = 24 * 60 * 60_000;
const FACTOR_BACKOFF_BASE_MS = 60_000;
const FACTOR_BACKOFF_MAX_MS = FACTOR_FAILURE_WINDOW_MS;

export function factorThrottleKey(identityId: string): string {
  return sha256(`aal2:${identityId}`);
}

/** Seconds until the next code may be tried for this account, or 0 when one may be tried now. */
export async function factorRetryAfter(q: Queryable, key: string): Promise<number> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
  const r = await q.query<{ n: number; last: string | null }>(
    `SELECT count(*)::int AS n, max(failed_at) AS last FROM identity_login_failures
      WHERE key_hash = $1 AND failed_at > now() - $2 * interval '1 millisecond'`,
    [key, FACTOR_FAILURE_WINDOW_MS],
  );
  const { n, last } = r.rows[0];
  if (n < FACTOR_FAILURE_LIMIT || !last) return 0;
  // the exponent is capped well before 2^n could overflow; the wait itself at FACTOR_BACKOFF_MAX_MS
  const waitMs = Math.min(FACTOR_BACKOFF_MAX_MS, FACTOR_BACKOFF_BASE_MS * 2 ** Math.min(n - FACTOR_FAILURE_LIMIT, 30));
  const freeAt = new Date(last).getTime() + waitMs;
  return freeAt > Date.now() ? Math.ceil((freeAt - Date.now()) / 1000) : 0;
}

/** Rows are kept as long as the longest window that reads them (the second factor's day). */
export async function pruneLoginFailures(q: Queryable): Promise<void> {
  await q.query(`DELETE FROM identity_login_failures WHERE failed_at < now() - $1 * interval '1 millisecond'`, [
    Math.max(LOGIN_FAILURE_WINDOW_MS, FACTOR_FAILURE_WINDOW_MS),
  ]);
}
