import { RestError } from './errors.ts';

/** Prefer header: `count=exact, return=representation, resolution=merge-duplicates, missing=default` */
export interface Prefer {
  count?: 'exact' | 'planned' | 'estimated';
  return?: 'representation' | 'minimal' | 'headers-only';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default';
  /** `tx=rollback`: the request runs, answers, and its transaction is rolled back (a dry run) */
  tx?: 'commit' | 'rollback';
}

export function parsePrefer(header: string | string[] | undefined): Prefer {
  const out: Prefer = {};
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of text.split(/[,;]/)) {
    const [k, v] = part
      .trim()
      .split('=')
      .map((s) => s?.trim());
    if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) out.count = v;
    else if (k === 'return' && (v === 'representation' || v === 'minimal' || v === 'headers-only')) out.return = v;
    else if (k === 'resolution' && (v === 'merge-duplicates' || v === 'ignore-duplicates')) out.resolution = v;
    else if (k === 'missing' && v === 'default') out.missing = v;
    else if (k === 'tx' && (v === 'commit' || v === 'rollback')) out.tx = v;
  }
  return out;
}

export type Format = 'json' | 'object' | 'csv';

/**
 * The first media type of Accept the engine can produce (PostgREST does not weigh q-values
 * either). `nulls=stripped` on the JSON types (postgrest-js `stripNulls()`) drops null fields.
 */
export function negotiate(accept: string | undefined): { format: Format; stripNulls: boolean } {
  if (!accept) return { format: 'json', stripNulls: false };
  for (const item of accept.split(',')) {
    const [type, ...params] = item.split(';').map((p) => p.trim().toLowerCase());
    const stripNulls = params.some((p) => p.replace(/\s+/g, '') === 'nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object')
      return { format: 'object', stripNulls };
    if (type === 'text/csv') return { format: 'csv', stripNulls: false };
    if (
      ['application/json', 'application/vnd.pgrst.array+json', '*/*', 'application/*', 'application/geo+json'].includes(
        type,
      )
    )
      return { format: 'json', stripNulls };
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`);
}

/** JSON.stringify replacer: object fields whose value is null are left out (array items stay). */
export function withoutNulls(this: unknown, _key: string, value: unknown): unknown {
  return value === null && !Array.isArray(this) ? undefined : value;
}

/**
 * `Range: 0-24` (items) -> offset/limit; `10-5` gives a limit below 1, an empty range that
 * rootPage (plans.ts) answers with 416. Anything else is ignored, as PostgREST does.
 */
export function parseRange(header: string | undefined): { offset: number; limit?: number } | undefined {
  if (!header) return undefined;
  const m = /^(?:items=)?(\d+)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const from = Number(m[1]);
  if (m[2] === '') return { offset: from };
  return { offset: from, limit: Number(m[2]) - from + 1 };
}

/**
 * Preference-Applied: the preferences this request honoured, in PostgREST's order. `count` is
 * always answered exactly (planned and estimated too), so that is what it says; `handling` and
 * `max-affected` are not applied.
 */
export function preferenceApplied(prefer: Prefer, method: string, kind: 'read' | 'write' | 'rpc'): string | undefined {
  const out: string[] = [];
  if (prefer.resolution && kind === 'write' && method === 'POST') out.push(`resolution=${prefer.resolution}`);
  if (prefer.missing && kind === 'write' && (method === 'POST' || method === 'PATCH'))
    out.push(`missing=${prefer.missing}`);
  if (prefer.return && kind === 'write') out.push(`return=${prefer.return}`);
  if (prefer.count) out.push('count=exact');
  if (prefer.tx) out.push(`tx=${prefer.tx}`);
  return out.length ? out.join(', ') : undefined;
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '';
  const headers = Object.keys(rows[0]);
  return [headers.join(','), ...rows.map((r) => headers.map((h) => csvCell(r[h])).join(','))].join('\n');
}
