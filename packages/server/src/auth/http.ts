import type { FastifyReply, FastifyRequest } from 'fastify';
// setCookie/clearCookie on the reply come from @fastify/cookie's type augmentation
import type {} from '@fastify/cookie';
import type { Config } from '../config.ts';
import { AuthError } from './errors.ts';

/**
 * Cookie names, request origins and the browser-facing addresses of the web app's account pages.
 * Kept together because WebAuthn, return_to checks, email links and cookie flags all have to agree
 * on what "our origin" is.
 */

export const SESSION_COOKIE = 'watchdeck_session';
/** Binds flows to the browser that started them; only /api/auth ever needs it. */
export const CSRF_COOKIE = 'watchdeck_csrf';
const CSRF_COOKIE_PATH = '/api/auth';
const CSRF_COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/** The web app's pages for each flow (seed 002 section 2.1) and for stored flow errors. */
export const UI_PATHS = {
  login: '/login',
  registration: '/registration',
  recovery: '/recovery',
  verification: '/verification',
  settings: '/profile-settings',
  error: '/error',
} as const;

export type AuthSettings = Pick<Config, 'publicUrl' | 'sessionTtlMs'>;

/** The origin browsers use to reach us: WATCHDECK_PUBLIC_URL when set, else what the request says. */
export function publicOrigin(req: FastifyRequest, config: Pick<Config, 'publicUrl'>): string {
  if (config.publicUrl) return new URL(config.publicUrl).origin;
  return `${req.protocol}://${req.host}`;
}

/**
 * Absolute base for links in emails and invitations (keeps a path prefix of the public URL).
 * Never an address a caller made up: without WATCHDECK_PUBLIC_URL the request's host counts only
 * when WATCHDECK_ALLOWED_HOSTS lists it; otherwise the link points at this machine's own port
 * (http://localhost:PORT) and a warning says which setting is missing.
 */
export function publicBase(req: FastifyRequest, config: Pick<Config, 'publicUrl' | 'allowedHosts' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = (req.host ?? '').toLowerCase();
  if (host && hostAllowed(host, config.allowedHosts)) return `${req.protocol === 'https' ? 'https' : 'http'}://${host}`;
  const fallback = `http://localhost:${config.port}`;
  if (host !== `localhost:${config.port}`) {
    req.log.warn(
      { host, link: fallback },
      'link built for localhost: set WATCHDECK_PUBLIC_URL (or list the host in WATCHDECK_ALLOWED_HOSTS)',
    );
  }
  return fallback;
}

/** 'example.com:8443' -> ['example.com', '8443']; '[::1]:80' -> ['[::1]', '80']; no port: ''. */
function splitHost(host: string): [string, string] {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host);
  return m ? [m[1], m[2] ?? ''] : [host, ''];
}

/** An allowed-hosts entry names a host ('ops.example.com': any port) or a host and port. */
function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const [name, port] = splitHost(host.toLowerCase());
  return allowed.some((entry) => {
    const [n, p] = splitHost(entry);
    return n === name && (p === '' || p === port);
  });
}

/**
 * Whether a browser's Origin header names this server: the public URL's origin, the host the
 * request was sent to (Host, or X-Forwarded-Host from a trusted proxy) or an allowed host. The
 * scheme is not compared with the request's: behind a TLS proxy that is not trusted the request
 * says http while the browser says https.
 */
export function isOwnOrigin(
  origin: string,
  req: FastifyRequest,
  config: Pick<Config, 'publicUrl' | 'allowedHosts'>,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (config.publicUrl && url.origin === new URL(config.publicUrl).origin) return true;
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  const originPort = url.port || defaultPort;
  const [reqName, reqPort] = splitHost((req.host ?? '').toLowerCase());
  if (reqName && reqName === url.hostname && (reqPort || defaultPort) === originPort) return true;
  return hostAllowed(`${url.hostname}:${originPort}`, config.allowedHosts);
}

function isHttps(req: FastifyRequest, config: Pick<Config, 'publicUrl'>): boolean {
  return req.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
}

/** Same-origin or relative return_to only: anything else would make us an open redirect. */
export function checkReturnTo(
  raw: unknown,
  req: FastifyRequest,
  config: Pick<Config, 'publicUrl'>,
): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const hasControlOrBackslash = (v: string) => [...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\\');
  if (typeof raw !== 'string' || raw.length > 2048 || hasControlOrBackslash(raw)) {
    throw new AuthError('self_service_flow_return_to_forbidden');
  }
  if (raw.startsWith('/') && !raw.startsWith('//')) return raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AuthError('self_service_flow_return_to_forbidden');
  }
  const allowed = new Set([publicOrigin(req, config), `${req.protocol}://${req.host}`]);
  if (!allowed.has(url.origin)) throw new AuthError('self_service_flow_return_to_forbidden');
  return url.toString();
}

export function setSessionCookie(
  reply: FastifyReply,
  req: FastifyRequest,
  config: AuthSettings,
  token: string,
  expiresAt: Date,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(req, config),
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, req: FastifyRequest, config: AuthSettings) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(req, config) });
}

export function setCsrfCookie(reply: FastifyReply, req: FastifyRequest, config: AuthSettings, value: string) {
  reply.setCookie(CSRF_COOKIE, value, {
    path: CSRF_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(req, config),
    maxAge: CSRF_COOKIE_MAX_AGE_S,
  });
}

/** Query parameters that carry secrets: flow ids and codes, link and logout tokens, CSRF tokens. */
const SECRET_PARAMS = 'token|flow|code|csrf_token|logout_token|access_token|refresh_token|secret|password|api_key';
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_PARAMS})=)[^&#\\s"]*`, 'gi');
/** under /api/auth an `id` is a flow's (GET .../flows?id=) */
const AUTH_ID_QUERY = /([?&]id=)[^&#\s"]*/gi;

/**
 * A URL (or a log message holding one) with the values of secret-bearing query parameters
 * replaced by [REDACTED], for the request log: an invitation link's token or a flow id in a log
 * file would let its reader finish someone else's sign-in.
 */
export function redactUrl(text: string): string {
  if (!text.includes('=')) return text;
  let out = text.replace(SECRET_QUERY, '$1[REDACTED]');
  if (out.includes('/api/auth/')) out = out.replace(AUTH_ID_QUERY, '$1[REDACTED]');
  return out;
}

/** A navigation (link click, form post without JS) rather than a fetch from the web app. */
export function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

export { isUuid } from '@watchdeck/core';
