/**
 * JWT verification of webhook calls: HS256 with the spec's shared secret, or RS256 / ES256 with a
 * key of the issuer's JWKS (`jwksUri`, else the `jwks_uri` of the issuer's OpenID discovery
 * document). node:crypto reads JWKs and checks the signatures, so no JOSE library is needed for
 * these three algorithms. Key sets are kept 5 minutes; a token naming an unknown key id fetches
 * the set again (at most every 30 s), so a rotated key is accepted without a restart.
 */
import { createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { fetch } from 'undici';

export interface JwtConfig {
  issuer: string;
  secret?: string;
  jwksUri?: string;
  audience?: string;
}

/** A key of a JWK set as published (RFC 7517); node:crypto reads the key fields itself. */
interface Jwk {
  kty?: string;
  crv?: string;
  kid?: string;
  alg?: string;
  use?: string;
  [field: string]: unknown;
}

const KEYS_TTL_MS = 5 * 60_000;
const REFETCH_MIN_MS = 30_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_DOCUMENT_BYTES = 512 * 1024;

const keySets = new Map<string, { keys: Jwk[]; fetchedAt: number }>();
const discovered = new Map<string, { jwksUri: string; fetchedAt: number }>();

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_DOCUMENT_BYTES) throw new Error(`${url} answered more than ${MAX_DOCUMENT_BYTES} bytes`);
  return JSON.parse(text) as unknown;
}

/** The JWKS address: the spec's, else the issuer's discovery document's (its issuer must match). */
async function jwksUriOf(cfg: JwtConfig): Promise<string> {
  if (cfg.jwksUri) return cfg.jwksUri;
  const hit = discovered.get(cfg.issuer);
  if (hit && Date.now() - hit.fetchedAt < KEYS_TTL_MS) return hit.jwksUri;
  const doc = (await getJson(`${cfg.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)) as {
    issuer?: unknown;
    jwks_uri?: unknown;
  };
  if (doc.issuer !== cfg.issuer) throw new Error('the discovery document names another issuer');
  if (typeof doc.jwks_uri !== 'string' || !/^https?:\/\//.test(doc.jwks_uri))
    throw new Error('the discovery document has no jwks_uri');
  discovered.set(cfg.issuer, { jwksUri: doc.jwks_uri, fetchedAt: Date.now() });
  return doc.jwks_uri;
}

async function keysOf(uri: string, refresh: boolean): Promise<Jwk[]> {
  const hit = keySets.get(uri);
  const age = hit ? Date.now() - hit.fetchedAt : Infinity;
  if (hit && age < KEYS_TTL_MS && (!refresh || age < REFETCH_MIN_MS)) return hit.keys;
  const doc = (await getJson(uri)) as { keys?: unknown };
  if (!Array.isArray(doc.keys)) throw new Error(`${uri} is not a JWK set`);
  const keys = doc.keys.filter((k): k is Jwk => !!k && typeof k === 'object');
  keySets.set(uri, { keys, fetchedAt: Date.now() });
  return keys;
}

const KEY_TYPE: Record<string, { kty: string; crv?: string }> = {
  RS256: { kty: 'RSA' },
  ES256: { kty: 'EC', crv: 'P-256' },
};

function fits(k: Jwk, alg: string, kid: string | undefined): boolean {
  const t = KEY_TYPE[alg]!;
  return (
    k.kty === t.kty &&
    (!t.crv || k.crv === t.crv) &&
    (!k.alg || k.alg === alg) &&
    (!k.use || k.use === 'sig') &&
    (kid === undefined || k.kid === kid)
  );
}

async function jwksKey(cfg: JwtConfig, alg: string, kid: string | undefined): Promise<KeyObject | undefined> {
  const uri = await jwksUriOf(cfg);
  let candidates = (await keysOf(uri, false)).filter((k) => fits(k, alg, kid));
  if (!candidates.length) candidates = (await keysOf(uri, true)).filter((k) => fits(k, alg, kid));
  // without a kid the one key of the right type is meant; several would be a guess
  if (candidates.length !== 1) return undefined;
  const { kid: _k, alg: _a, use: _u, ...jwk } = candidates[0]!;
  return createPublicKey({ key: jwk, format: 'jwk' } as Parameters<typeof createPublicKey>[0]);
}

/** Why the token is refused, or undefined when it is good: signature, issuer, audience, expiry, not-before. */
export async function jwtProblem(token: string, cfg: JwtConfig): Promise<string | undefined> {
  const parts = token.split('.');
  if (parts.length !== 3) return 'not a JWT';
  const [h, p, s] = parts as [string, string, string];
  let header: { alg?: unknown; kid?: unknown };
  let claims: { iss?: unknown; aud?: unknown; exp?: unknown; nbf?: unknown };
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    return 'not a JWT';
  }
  const alg = String(header.alg ?? '');
  const signed = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(s, 'base64url');
  if (cfg.secret) {
    // a secret means HS256 only: a public-key algorithm here would be a key-confusion attempt
    if (alg !== 'HS256') return 'only HS256 tokens are accepted';
    const expected = createHmac('sha256', cfg.secret).update(signed).digest('base64url');
    if (!safeEqual(expected, s)) return 'bad signature';
  } else {
    if (alg !== 'RS256' && alg !== 'ES256') return 'only RS256 and ES256 tokens are accepted';
    let key: KeyObject | undefined;
    try {
      key = await jwksKey(cfg, alg, typeof header.kid === 'string' ? header.kid : undefined);
    } catch (err) {
      return `the issuer's keys could not be read: ${(err as Error).message}`;
    }
    if (!key) return 'no key of the issuer matches the token';
    const ok =
      alg === 'RS256'
        ? verify('sha256', signed, key, signature)
        : verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature);
    if (!ok) return 'bad signature';
  }
  if (claims.iss !== cfg.issuer) return 'wrong issuer';
  if (cfg.audience && !(Array.isArray(claims.aud) ? claims.aud : [claims.aud]).includes(cfg.audience))
    return 'wrong audience';
  const now = Date.now() / 1000;
  if (typeof claims.exp === 'number' && claims.exp < now) return 'expired';
  if (typeof claims.nbf === 'number' && claims.nbf > now + 30) return 'not valid yet';
  return undefined;
}
