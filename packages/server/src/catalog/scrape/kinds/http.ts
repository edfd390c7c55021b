/**
 * The `http` kind: one JSON answer of an API (`url`, or the URL of a `connection`), with `method`,
 * `headers`, `body` and `auth` (basic `username`/`password`, or `bearer`; a connection's username
 * and password are used as basic auth when the spec has none), mapped to items by the shared
 * mapping (`items`, `id`, `type`, `name`, ...).
 */
import { guardedFetch } from '#server/http/outbound.ts';
import { mapDocument, type MappingSpec } from '#server/catalog/mapping.ts';
import type { ScrapeContext, ScrapeResult } from '#server/catalog/scrape/types.ts';

interface HttpSpec extends MappingSpec {
  url?: string;
  connection?: string;
  method?: string;
  headers?: Record<string, string> | { name: string; value: string }[];
  body?: string;
  auth?: { username?: string; password?: string; bearer?: string };
}

const MAX_BODY = 50 * 1024 * 1024;
const TIMEOUT_MS = 60_000;

/** A spec value that may be `{value: x}` (the seeds' secret-or-value input). */
function plain(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'string')
    return (v as { value: string }).value;
  return undefined;
}

export async function scrapeHttp(raw: Record<string, unknown>, ctx: ScrapeContext): Promise<ScrapeResult> {
  const spec = raw as HttpSpec;
  let url = spec.url;
  let username = plain(spec.auth?.username);
  let password = plain(spec.auth?.password);
  if (spec.connection) {
    const c = await ctx.connection(spec.connection);
    if (!url || !/^https?:\/\//.test(url)) url = `${String(c.url ?? '').replace(/\/$/, '')}${url ?? ''}`;
    if (!username && typeof c.username === 'string' && c.username) username = c.username;
    if (!password && typeof c.password === 'string' && c.password) password = c.password;
  }
  if (!url) throw new Error('url is required (or a connection with a URL)');
  if (!/^https?:\/\//.test(url)) throw new Error(`url ${url} is not an http(s) URL`);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'watchdeck' };
  if (Array.isArray(spec.headers)) for (const h of spec.headers) headers[h.name.toLowerCase()] = String(h.value);
  else if (spec.headers) for (const [k, v] of Object.entries(spec.headers)) headers[k.toLowerCase()] = String(v);
  const bearer = plain(spec.auth?.bearer);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  else if (username || password)
    headers.authorization = `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}`;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(TIMEOUT_MS)]);
  const res = await guardedFetch(url, { method: spec.method ?? 'GET', headers, body: spec.body, signal });
  const text = await res.text();
  if (text.length > MAX_BODY) throw new Error(`${url}: the answer is larger than ${MAX_BODY} bytes`);
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`.trim());
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
  const { items, errors } = mapDocument(doc, spec, { id: url, name: url, source: url });
  return { items, changes: [], relationships: [], errors };
}
