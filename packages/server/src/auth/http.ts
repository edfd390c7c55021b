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

/** Absolute base for links in emails and invitations (keeps a path prefix of the public URL). */
export function publicBase(req: FastifyRequest, config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl ?? publicOrigin(req, config);
}

export function isHttps(req: FastifyRequest, config: Pick<Config, 'publicUrl'>): boolean {
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

/** A navigation (link click, form post without JS) rather than a fetch from the web app. */
export function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
}
