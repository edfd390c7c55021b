import type { PlainConnection } from '#server/connections/index.ts';
import { SendError } from './http.ts';
import type { SendContext } from './types.ts';

export const prop = (o: Record<string, unknown> | null | undefined, key: string): string => {
  const v = o?.[key];
  return v === undefined || v === null ? '' : String(v).trim();
};

/** A connection property, or the rule's override of it (custom_services[].properties). */
export const setting = (c: PlainConnection, ctx: SendContext, key: string): string =>
  prop(ctx.properties, key) || prop(c.properties, key);

export function need(value: string | null | undefined, what: string): string {
  if (!value) throw new SendError(`the connection has no ${what}`);
  return value;
}

/**
 * The base URL of a service with a host field: the host as the connection stores it
 * (`chat.example.com`, `chat.example.com:8065`, or with its scheme: `http://10.0.0.5:8065`),
 * https unless it says otherwise; else the connection's url column, else the default host.
 */
export function hostBase(c: PlainConnection, fallbackHost?: string): string {
  const host = prop(c.properties, 'host') || c.url || fallbackHost;
  if (!host) throw new SendError('the connection has no host');
  const port = prop(c.properties, 'port');
  let base: URL;
  try {
    base = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `https://${host}`);
  } catch {
    throw new SendError(`the connection's host "${host}" is not a host name`);
  }
  if (port && !base.port && !(base.protocol === 'https:' && port === '443')) base.port = port;
  return `${base.protocol}//${base.host}${base.pathname.replace(/\/+$/, '')}`;
}

/** The API of a service without a host field: its public address, or WATCHDECK_NOTIFICATION_API_URLS' (README). */
export const apiBase = (ctx: SendContext, service: string, publicUrl: string): string =>
  ctx.apiUrls[service] ?? publicUrl;

export const basicAuth = (user: string | null | undefined, pass: string | null | undefined): Record<string, string> =>
  user || pass ? { Authorization: `Basic ${Buffer.from(`${user ?? ''}:${pass ?? ''}`).toString('base64')}` } : {};

export const list = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
