/**
 * The sources a lookup reads its items from: catalog items and checks (by selector, in this
 * database), the rows of an SQL query through a connection (postgres or mysql, read-only), and the
 * elements of an HTTP JSON answer. Each answers at most TOPOLOGY_MAX_LOOKUP_ITEMS items.
 */
import {
  TOPOLOGY_MAX_LOOKUP_ITEMS,
  type TopologyComponentSpec,
  topologyCheckSelectorSchema,
  topologyConfigSelectorSchema,
} from '@watchdeck/core';
import type { z } from 'zod';
import { guardedFetch } from '#server/http/outbound.ts';
import type { Queryable } from '#server/db/index.ts';
import type { StoredConnection } from '#server/connections/index.ts';
import { sqlDriver, sqlRows } from '#server/catalog/index.ts';

export type ConfigSelector = z.infer<typeof topologyConfigSelectorSchema>;
export type CheckSelector = z.infer<typeof topologyCheckSelectorSchema>;
export type Lookup = NonNullable<TopologyComponentSpec['lookup']>;

/** What a lookup found: the template's `.item`, and the catalog item or check to link it to. */
export interface LookupItem {
  item: Record<string, unknown>;
  /** a stable key of the item (its id), for the generated component's default identity */
  key?: string;
  configId?: string;
  checkId?: string;
  canaryId?: string;
}

export interface LookupContext {
  q: Queryable;
  connection(ref: string): Promise<StoredConnection>;
  signal: AbortSignal;
}

const HTTP_TIMEOUT_MS = 30_000;
const MAX_HTTP_BODY = 50 * 1024 * 1024;

/** `k=v,k2=v2` as a map. */
function parseSelector(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

const like = (glob: string) => glob.replace(/[%_\\]/g, '\\$&').replace(/\*/g, '%');

/** WHERE of a catalog selector over config_items `t`; values are bound in params. */
export function configWhere(sel: ConfigSelector, params: unknown[]): string {
  const parts = ['t.deleted_at IS NULL'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    parts.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (sel.id) add('t.id::text = ?', sel.id);
  if (sel.name) add('t.name LIKE ?', like(sel.name));
  const types = [...(sel.types ?? []), ...(sel.type ? [sel.type] : [])];
  if (types.length) add('t.type = ANY(?::text[])', types);
  if (sel.namespace) add(`t.tags->>'namespace' = ?`, sel.namespace);
  const labels = { ...parseSelector(sel.labelSelector), ...(sel.labels ?? {}) };
  if (Object.keys(labels).length) add('t.labels @> ?::jsonb', JSON.stringify(labels));
  const tags = { ...parseSelector(sel.tagSelector), ...(sel.tags ?? {}) };
  if (Object.keys(tags).length) add('t.tags @> ?::jsonb', JSON.stringify(tags));
  return parts.join(' AND ');
}

/** WHERE of a check selector over checks `t`. */
export function checkWhere(sel: CheckSelector, params: unknown[]): string {
  const parts = ['t.deleted_at IS NULL'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    parts.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (sel.id) add('t.id::text = ?', sel.id);
  if (sel.name) add('t.name LIKE ?', like(sel.name));
  if (sel.type) add('t.type = ?', sel.type);
  if (sel.namespace) add('t.namespace = ?', sel.namespace);
  const labels = { ...parseSelector(sel.labelSelector), ...(sel.labels ?? {}) };
  if (Object.keys(labels).length) add('t.labels @> ?::jsonb', JSON.stringify(labels));
  return parts.join(' AND ');
}

const many = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function tooMany(): never {
  throw new Error(`the lookup found more than ${TOPOLOGY_MAX_LOOKUP_ITEMS} items; narrow it`);
}

async function configItems(ctx: LookupContext, selectors: ConfigSelector[]): Promise<LookupItem[]> {
  const seen = new Map<string, LookupItem>();
  for (const sel of selectors) {
    const params: unknown[] = [];
    const { rows } = await ctx.q.query<Record<string, unknown> & { id: string }>(
      `SELECT t.id, t.name, t.type, t.config_class, t.external_id, t.labels, t.tags, t.health, t.status,
              t.description, t.config, t.tags->>'namespace' AS namespace, t.created_at, t.updated_at
       FROM config_items t WHERE ${configWhere(sel, params)} ORDER BY t.name, t.id LIMIT ${TOPOLOGY_MAX_LOOKUP_ITEMS + 1}`,
      params,
    );
    for (const r of rows) seen.set(r.id, { item: r, key: r.id, configId: r.id });
    if (seen.size > TOPOLOGY_MAX_LOOKUP_ITEMS) tooMany();
  }
  return [...seen.values()];
}

async function checkItems(ctx: LookupContext, selectors: CheckSelector[]): Promise<LookupItem[]> {
  const seen = new Map<string, LookupItem>();
  for (const sel of selectors) {
    const params: unknown[] = [];
    const { rows } = await ctx.q.query<Record<string, unknown> & { id: string; canary_id: string }>(
      `SELECT t.id, t.canary_id, t.name, t.type, t.namespace, t.labels, coalesce(t.status, 'unknown') AS status,
              t.description, t.severity, t.endpoint, t.icon
       FROM checks t WHERE ${checkWhere(sel, params)} ORDER BY t.name, t.id LIMIT ${TOPOLOGY_MAX_LOOKUP_ITEMS + 1}`,
      params,
    );
    for (const r of rows) seen.set(r.id, { item: r, key: r.id, checkId: r.id, canaryId: r.canary_id });
    if (seen.size > TOPOLOGY_MAX_LOOKUP_ITEMS) tooMany();
  }
  return [...seen.values()];
}

const plain = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

async function sqlItems(ctx: LookupContext, spec: NonNullable<Lookup['sql']>): Promise<LookupItem[]> {
  const c = await ctx.connection(spec.connection);
  const url = plain(c.url);
  if (!url) throw new Error(`connection ${spec.connection} has no URL`);
  const rows = await sqlRows(
    sqlDriver(spec.driver, c.type, url),
    url,
    plain(c.username),
    plain(c.password),
    spec.query,
    TOPOLOGY_MAX_LOOKUP_ITEMS,
  );
  return rows.map((item) => ({ item }));
}

/** `$.a.b[0].c` or `a.b`: the value at a dotted path. */
function at(doc: unknown, path: string | undefined): unknown {
  const p = (path ?? '').trim().replace(/^\$\.?/, '');
  if (!p) return doc;
  let cur = doc;
  for (const key of p.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

async function httpItems(ctx: LookupContext, spec: NonNullable<Lookup['http']>): Promise<LookupItem[]> {
  let url = spec.url;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'watchdeck' };
  if (spec.connection) {
    const c = await ctx.connection(spec.connection);
    const base = plain(c.url) ?? '';
    if (!url || !/^https?:\/\//.test(url)) url = `${base.replace(/\/$/, '')}${url ?? ''}`;
    const user = plain(c.username);
    const pass = plain(c.password);
    if (user || pass) headers.authorization = `Basic ${Buffer.from(`${user ?? ''}:${pass ?? ''}`).toString('base64')}`;
  }
  if (!url || !/^https?:\/\//.test(url)) throw new Error(`url ${url ?? ''} is not an http(s) URL`);
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(HTTP_TIMEOUT_MS)]);
  const res = await guardedFetch(url, { method: spec.method ?? 'GET', headers, body: spec.body, signal });
  const text = await res.text();
  if (text.length > MAX_HTTP_BODY) throw new Error(`${url}: the answer is larger than ${MAX_HTTP_BODY} bytes`);
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`.trim());
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
  const found = at(doc, spec.items);
  if (!Array.isArray(found))
    throw new Error(`${url}: ${spec.items ? `${spec.items} is not a list` : 'the answer is not a list; set items'}`);
  if (found.length > TOPOLOGY_MAX_LOOKUP_ITEMS) tooMany();
  return found.map((e) => ({ item: e && typeof e === 'object' ? (e as Record<string, unknown>) : { value: e } }));
}

/** The items of one lookup. */
export async function lookupItems(ctx: LookupContext, lookup: Lookup): Promise<LookupItem[]> {
  if (lookup.configs) return configItems(ctx, many(lookup.configs));
  if (lookup.checks) return checkItems(ctx, many(lookup.checks));
  if (lookup.sql) return sqlItems(ctx, lookup.sql);
  if (lookup.http) return httpItems(ctx, lookup.http);
  return [];
}
