import { httpCall, type HttpAnswer, type HttpCallOptions } from '../http-call.ts';

/**
 * What every tester shares: the connection as a tester sees it (secrets decrypted), the
 * not-implemented outcome, one timeout, and the helpers that turn a peer's answer into a message
 * a person can act on. Field layouts per type are in core's connection-types.ts (what is in url,
 * username, password, certificate and properties).
 */
export interface PlainConnection {
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate?: string | null;
  insecure_tls?: boolean | null;
  properties?: Record<string, unknown> | null;
}

export class NotImplementedError extends Error {
  constructor(type: string, message = `testing ${type} connections is not implemented`) {
    super(message);
  }
}

export const TIMEOUT_MS = 8000;
export const TEST_TEXT = 'Watchdeck connection test';

export function requireUrl(c: PlainConnection): string {
  if (!c.url) throw new Error('the connection has no URL');
  return c.url;
}

export function requirePassword(c: PlainConnection, what: string): string {
  if (!c.password) throw new Error(`the connection has no ${what}`);
  return c.password;
}

export const prop = (c: PlainConnection, key: string): string => {
  const v = c.properties?.[key];
  return v === undefined || v === null ? '' : String(v);
};

/** Puts username/password into a URL unless it already carries credentials. */
export function withCredentials(raw: string, c: PlainConnection): string {
  const u = new URL(raw);
  if (!u.username && c.username) u.username = encodeURIComponent(c.username);
  if (!u.password && c.password) u.password = encodeURIComponent(c.password);
  return u.toString();
}

export async function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${TIMEOUT_MS / 1000}s`)), TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function join(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

export function call(
  c: PlainConnection,
  url: string,
  init: Omit<HttpCallOptions, 'timeoutMs'> = {},
): Promise<HttpAnswer> {
  return httpCall(url, { timeoutMs: TIMEOUT_MS, insecureTls: !!c.insecure_tls, ...init });
}

/** A peer's refusal as a message; `what` names the service (never the URL, which may carry a token). */
export function refused(what: string, a: HttpAnswer, detail?: unknown): Error {
  const extra =
    typeof detail === 'string' && detail ? `: ${detail.slice(0, 200)}` : a.text ? `: ${a.text.slice(0, 200)}` : '';
  return new Error(`${what} answered ${a.status}${extra}`);
}

export function basicAuth(user: string | null | undefined, pass: string | null | undefined): Record<string, string> {
  return user ? { Authorization: `Basic ${Buffer.from(`${user}:${pass ?? ''}`).toString('base64')}` } : {};
}

/** A tester resolves on success and throws an Error saying what to fix. */
export type Tester = (c: PlainConnection) => Promise<void>;
