/**
 * Small primitives shared by sessions, flows, codes and tokens. Secrets that are random and long
 * (session tokens, access tokens, backup codes) are stored as SHA-256: a fast hash is enough when
 * the input cannot be guessed. Passwords, which can be guessed, go through argon2 (password.ts).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe random string carrying `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison; different lengths are simply unequal. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A numeric one-time code such as '042917' (recovery and verification emails). */
export function numericCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

const CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'; // no 0/o, 1/l: easy to copy by hand

/** A backup (lookup secret) code: 10 characters from a 32-letter alphabet, 50 bits. */
export function lookupCode(length = 10): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[randomInt(0, CODE_ALPHABET.length)];
  return out;
}
