/**
 * Second factors: TOTP apps (otplib), backup codes ("lookup secrets") and WebAuthn security keys
 * (@simplewebauthn/server). Pure helpers: storage is the flows' business.
 */
import type { FastifyRequest } from 'fastify';
import { generateSecret, generateURI, verify as verifyOtp } from 'otplib';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Config } from '../config.ts';
import { lookupCode, sha256 } from './crypto.ts';
import { publicOrigin } from './http.ts';
import type { LookupConfig, WebauthnKey } from './identities.ts';

const ISSUER = 'Watchdeck';

// ---- TOTP -----------------------------------------------------------------------------------

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: ISSUER, label: account, secret });
}

/**
 * Accepts the current 30 s step and one on either side (clock drift). afterTimeStep rejects a
 * code from a step already used, so an observed code cannot be replayed within its window.
 */
export async function checkTotp(
  secret: string,
  code: string,
  lastStep?: number,
): Promise<{ ok: true; step: number } | { ok: false }> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return { ok: false };
  try {
    const r = await verifyOtp({
      secret,
      token,
      epochTolerance: 30,
      ...(lastStep !== undefined ? { afterTimeStep: lastStep } : {}),
    });
    if (!r.valid) return { ok: false };
    // TOTP results carry the matched time step (the union type also covers HOTP, which has none)
    const step = (r as { timeStep?: number }).timeStep ?? Math.floor(Date.now() / 30_000) + r.delta;
    return { ok: true, step };
  } catch {
    return { ok: false };
  }
}

// ---- backup codes -----------------------------------------------------------------------------

const LOOKUP_CODE_COUNT = 12;

const normaliseLookup = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

function hashLookupCode(code: string): string {
  return sha256(`lookup:${normaliseLookup(code)}`);
}

export function newLookupCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: LOOKUP_CODE_COUNT }, () => lookupCode());
  return { codes, hashes: codes.map(hashLookupCode) };
}

/** Marks the matching code used; each code works once. */
export function useLookupCode(
  config: LookupConfig,
  code: string,
): { result: 'ok' | 'used' | 'invalid'; config: LookupConfig } {
  const h = hashLookupCode(code);
  const match = config.codes.find((c) => c.hash === h);
  if (!match) return { result: 'invalid', config };
  if (match.used_at) return { result: 'used', config };
  const now = new Date().toISOString();
  return { result: 'ok', config: { codes: config.codes.map((c) => (c.hash === h ? { ...c, used_at: now } : c)) } };
}

// ---- WebAuthn ---------------------------------------------------------------------------------

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** rpID is the public URL's host (or the request's): keys registered there work on that host only. */
export function relyingParty(req: FastifyRequest, config: Pick<Config, 'publicUrl'>): RelyingParty {
  const origin = publicOrigin(req, config);
  const origins = [...new Set([origin, `${req.protocol}://${req.host}`])];
  return { id: new URL(origin).hostname, name: ISSUER, origins };
}

const uuidBytes = (id: string) => new Uint8Array(Buffer.from(id.replace(/-/g, ''), 'hex'));
const b64u = {
  encode: (b: Uint8Array) => Buffer.from(b).toString('base64url'),
  decode: (s: string) => new Uint8Array(Buffer.from(s, 'base64url')),
};

export function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
  existing: WebauthnKey[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: uuidBytes(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((k) => ({ id: k.id, transports: k.transports })),
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
  });
}

export async function verifyRegistration(
  rp: RelyingParty,
  challenge: string,
  responseJson: string,
  displayName: string,
): Promise<WebauthnKey | undefined> {
  let response: RegistrationResponseJSON;
  try {
    response = JSON.parse(responseJson);
  } catch {
    return undefined;
  }
  try {
    const r = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!r.verified) return undefined;
    const c = r.registrationInfo.credential;
    return {
      id: c.id,
      public_key: b64u.encode(c.publicKey),
      counter: c.counter,
      transports: c.transports ?? response.response?.transports,
      display_name: displayName || 'Security key',
      added_at: new Date().toISOString(),
    };
  } catch {
    return undefined; // malformed or forged attestation: the caller shows a form message
  }
}

export function authenticationOptions(
  rp: RelyingParty,
  keys: WebauthnKey[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys.map((k) => ({ id: k.id, transports: k.transports })),
    userVerification: 'preferred',
  });
}

/** Verifies an assertion against one of the identity's keys; returns the key and its new counter. */
export async function verifyAuthentication(
  rp: RelyingParty,
  challenge: string,
  responseJson: string,
  keys: WebauthnKey[],
): Promise<{ key: WebauthnKey; counter: number } | undefined> {
  let response: AuthenticationResponseJSON;
  try {
    response = JSON.parse(responseJson);
  } catch {
    return undefined;
  }
  const key = keys.find((k) => k.id === response?.id);
  if (!key) return undefined;
  try {
    const r = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: key.id,
        publicKey: b64u.decode(key.public_key),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: false,
    });
    return r.verified ? { key, counter: r.authenticationInfo.newCounter } : undefined;
  } catch {
    return undefined;
  }
}
