/**
 * Loki and OpenSearch/Elasticsearch, through their documented HTTP query APIs (fetch, as DESIGN
 * section 7 chooses). Any failure to get a usable answer (refused, timed out, a non-2xx status,
 * a body that is not the documented shape) is a LogBackendError: the route answers 502.
 */
import { guardedFetch, outboundAgent } from '#server/http/outbound.ts';
import type { LogLine } from '@watchdeck/core';
import { LogBackendError, reason } from '../errors.ts';
import { decodePage, encodePage, type BackendAnswer, type BackendQuery } from './types.ts';

const TIMEOUT_MS = 15_000;
const MAX_BODY = 32 * 1024 * 1024;

type Secret = string | { value: string } | undefined;
const plain = (v: Secret) => (typeof v === 'string' ? v : v?.value);

interface HttpAuthSpec {
  username?: Secret;
  password?: Secret;
  bearer?: Secret;
  headers?: Record<string, string>;
  insecureTls?: boolean;
}

const insecureAgent = outboundAgent({ connect: { rejectUnauthorized: false } });

async function call(
  what: string,
  url: string,
  auth: HttpAuthSpec,
  init: { method?: string; body?: unknown; signal: AbortSignal },
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'watchdeck' };
  for (const [k, v] of Object.entries(auth.headers ?? {})) headers[k.toLowerCase()] = v;
  const bearer = plain(auth.bearer);
  const user = plain(auth.username);
  const pass = plain(auth.password);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  else if (user || pass)
    headers.authorization = `Basic ${Buffer.from(`${user ?? ''}:${pass ?? ''}`).toString('base64')}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const shown = url.split('?')[0];
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.any([init.signal, AbortSignal.timeout(TIMEOUT_MS)]),
      redirect: 'error',
      dispatcher: auth.insecureTls ? insecureAgent : undefined,
    });
  } catch (err) {
    const timedOut = (err as Error)?.name === 'TimeoutError';
    throw new LogBackendError(
      `${what} at ${shown} cannot be reached: ${timedOut ? `no answer within ${TIMEOUT_MS / 1000}s` : reason(err)}`,
    );
  }
  const text = await res.text().catch(() => '');
  if (text.length > MAX_BODY) throw new LogBackendError(`${what} at ${shown} answered more than ${MAX_BODY} bytes`);
  if (!res.ok) {
    // the peer's own error text helps (a LogQL parse error); cut to a sentence's length
    const detail = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    throw new LogBackendError(`${what} at ${shown} answered ${res.status}${detail ? `: ${detail}` : ''}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LogBackendError(`${what} at ${shown} did not answer JSON`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const base = (u: string) => u.replace(/\/+$/, '');

// ---- Loki ---------------------------------------------------------------------------------------

export interface LokiSpec extends HttpAuthSpec {
  url: string;
  query?: string;
}

/** LogQL's string literal: backslash and double quote escaped. */
const logqlString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type LokiToken = { end: string; n: number };
const isLokiToken = (v: unknown): v is LokiToken =>
  isObject(v) && typeof v.end === 'string' && /^\d{1,25}$/.test(v.end) && Number.isInteger(v.n) && (v.n as number) >= 0;

/**
 * GET /loki/api/v1/query_range with direction=backward: the newest `limit` entries of the
 * selector in [start, end], the text as a case-insensitive line filter. Loki counts nothing, so
 * the total is what was seen ('gte' while there is a next page). The next page ends 1 ns before
 * the oldest entry of this one.
 */
export async function searchLoki(spec: LokiSpec, q: BackendQuery): Promise<BackendAnswer> {
  const token = decodePage(q.page, isLokiToken);
  let logql = spec.query?.trim() || '{job=~".+"}';
  for (const [k, v] of Object.entries(q.labels ?? {}))
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) logql = logql.replace(/}/, `,${k}=${logqlString(v)}}`).replace('{,', '{');
  if (q.text?.trim()) logql += ` |~ ${logqlString(`(?i)${regexEscape(q.text.trim())}`)}`;
  const params = new URLSearchParams({
    query: logql,
    start: `${BigInt(q.startMs) * 1_000_000n}`,
    end: token?.end ?? `${BigInt(q.endMs) * 1_000_000n + 999_999n}`,
    limit: String(q.limit),
    direction: 'backward',
  });
  const body = await call('Loki', `${base(spec.url)}/loki/api/v1/query_range?${params}`, spec, { signal: q.signal });
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(body) || body.status !== 'success' || !isObject(data) || !Array.isArray(data.result))
    throw new LogBackendError(`Loki at ${base(spec.url)} did not answer a query_range result`);
  if (data.resultType !== 'streams')
    throw new LogBackendError(`Loki answered ${String(data.resultType)}, not log streams: the query must select logs`);
  const entries: { ns: bigint; line: LogLine }[] = [];
  for (const stream of data.result as unknown[]) {
    if (!isObject(stream) || !Array.isArray(stream.values)) continue;
    const labels = Object.fromEntries(
      Object.entries(isObject(stream.stream) ? stream.stream : {}).map(([k, v]) => [k, String(v)]),
    );
    for (const v of stream.values as unknown[]) {
      if (!Array.isArray(v) || typeof v[0] !== 'string' || !/^\d+$/.test(v[0])) continue;
      const ns = BigInt(v[0]);
      entries.push({
        ns,
        line: { timestamp: new Date(Number(ns / 1_000_000n)).toISOString(), message: String(v[1] ?? ''), labels },
      });
    }
  }
  entries.sort((a, b) => (a.ns === b.ns ? 0 : a.ns > b.ns ? -1 : 1));
  const page = entries.slice(0, q.limit);
  const before = token?.n ?? 0;
  const more = entries.length >= q.limit && page.length > 0;
  return {
    results: page.map((e) => e.line),
    total: before + page.length,
    totalRelation: more ? 'gte' : 'eq',
    next: more ? encodePage({ end: String(page[page.length - 1].ns - 1n), n: before + page.length }) : undefined,
  };
}

// ---- OpenSearch / Elasticsearch -----------------------------------------------------------------

export interface SearchSpec extends HttpAuthSpec {
  address: string;
  index?: string;
  fields?: { timestamp?: string; message?: string };
}

type SearchToken = { after: unknown[]; n: number };
const isSearchToken = (v: unknown): v is SearchToken =>
  isObject(v) && Array.isArray(v.after) && v.after.length <= 4 && Number.isInteger(v.n) && (v.n as number) >= 0;

/** A `_source` path (`log.message`) read from a document. */
function pick(doc: Record<string, unknown>, path: string): unknown {
  if (path in doc) return doc[path];
  let cur: unknown = doc;
  for (const p of path.split('.')) cur = isObject(cur) ? cur[p] : undefined;
  return cur;
}

/** Scalar fields of a document as labels (nested keys dotted), the timestamp and message left out. */
function labelsOf(doc: Record<string, unknown>, skip: Set<string>, prefix = '', out: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(doc)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (skip.has(key) || Object.keys(out).length >= 30) continue;
    if (isObject(v)) labelsOf(v, skip, key, out);
    else if (v !== null && v !== undefined && typeof v !== 'object') out[key] = String(v);
  }
  return out;
}

/**
 * POST /<index>/_search: the range on the timestamp field, the text as a phrase match on the
 * message field, newest first; `hits.total` gives the total and its relation. The next page
 * continues with `search_after` from the last hit's sort values.
 */
export async function searchOpenSearch(kind: string, spec: SearchSpec, q: BackendQuery): Promise<BackendAnswer> {
  const token = decodePage(q.page, isSearchToken);
  const ts = spec.fields?.timestamp ?? '@timestamp';
  const msg = spec.fields?.message ?? 'message';
  const filter: unknown[] = [
    {
      range: {
        [ts]: {
          gte: new Date(q.startMs).toISOString(),
          lte: new Date(q.endMs).toISOString(),
          format: 'strict_date_optional_time',
        },
      },
    },
  ];
  for (const [k, v] of Object.entries(q.labels ?? {})) filter.push({ term: { [k]: v } });
  const must = q.text?.trim() ? [{ match_phrase: { [msg]: q.text.trim() } }] : [];
  const body: Record<string, unknown> = {
    size: q.limit,
    sort: [{ [ts]: { order: 'desc' } }],
    query: { bool: { filter, must } },
    track_total_hits: 10_000,
    ...(token ? { search_after: token.after } : {}),
  };
  const index = encodeURIComponent(spec.index ?? '*')
    .replace(/%2C/gi, ',')
    .replace(/%2A/g, '*');
  const name = kind === 'elasticsearch' ? 'Elasticsearch' : 'OpenSearch';
  const answer = await call(name, `${base(spec.address)}/${index}/_search`, spec, {
    method: 'POST',
    body,
    signal: q.signal,
  });
  const hits = isObject(answer) ? answer.hits : undefined;
  if (!isObject(hits) || !Array.isArray(hits.hits))
    throw new LogBackendError(`${name} at ${base(spec.address)} did not answer search hits`);
  const skip = new Set([ts, msg]);
  const results: LogLine[] = [];
  let lastSort: unknown[] | undefined;
  for (const h of hits.hits as unknown[]) {
    if (!isObject(h) || !isObject(h._source)) continue;
    const src = h._source;
    const t = pick(src, ts);
    const time = typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : NaN;
    const message = pick(src, msg);
    results.push({
      timestamp: Number.isNaN(time) ? new Date(0).toISOString() : new Date(time).toISOString(),
      message: typeof message === 'string' ? message : JSON.stringify(message ?? src),
      labels: labelsOf(src, skip),
    });
    if (Array.isArray(h.sort)) lastSort = h.sort as unknown[];
  }
  const before = token?.n ?? 0;
  const totalRaw = hits.total;
  const total = typeof totalRaw === 'number' ? totalRaw : isObject(totalRaw) ? Number(totalRaw.value) : NaN;
  const relation = isObject(totalRaw) && totalRaw.relation === 'gte' ? 'gte' : 'eq';
  const more = results.length >= q.limit && !!lastSort;
  return {
    results,
    // the total is of the whole range, whatever page this is
    total: Number.isFinite(total) ? total : before + results.length,
    totalRelation: Number.isFinite(total) ? relation : more ? 'gte' : 'eq',
    next: more ? encodePage({ after: lastSort, n: before + results.length }) : undefined,
  };
}
