/**
 * The filter values the catalog's list routes take, as the web app writes them (seed 002
 * sections 2.2, 2.4, 7.1), turned into SQL with bound values.
 */
import { z } from 'zod';
import { decodeTriState, parseDuration, parseRelativeTime } from '@watchdeck/core';

/** Values to keep and values to drop; `*` in a value is a wildcard. */
export interface IncludeExclude {
  include: string[];
  exclude: string[];
}

const TRISTATE_ENTRY = /(?<!\\):-?1$/;

function splitUnescaped(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      cur += text[i + 1];
      i++;
    } else if (text[i] === ',') {
      out.push(cur);
      cur = '';
    } else cur += text[i];
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

/**
 * One filter value in any of the forms the web app sends: the URL's tri-state form
 * (`diff:1,deleted:-1`), the server form (`diff,!deleted`, core triStateToFilter), or a list of
 * values (each may start with `!`).
 */
export function parseIncludeExclude(value: string | string[] | undefined): IncludeExclude {
  const out: IncludeExclude = { include: [], exclude: [] };
  if (value === undefined) return out;
  if (typeof value === 'string' && value.split(/(?<!\\),/).every((e) => TRISTATE_ENTRY.test(e.trim()))) {
    for (const [k, v] of Object.entries(decodeTriState(value))) (v === -1 ? out.exclude : out.include).push(k);
    return out;
  }
  for (const v of typeof value === 'string' ? splitUnescaped(value) : value.map((s) => s.trim()).filter(Boolean)) {
    if (v.startsWith('!')) out.exclude.push(v.slice(1));
    else out.include.push(v);
  }
  return out;
}

/** A filter value in the request body: a string or a list of strings. */
export const filterValue = z
  .union([z.string().max(4000), z.array(z.string().max(500)).max(200)], {
    error: (iss) =>
      `${iss.path?.length ? iss.path.join('.') : 'filter'} must be a string ('a,!b' or 'a:1,b:-1') or a list of strings`,
  })
  .optional();

/** Tags as the changes list writes them: `key____value`, `:-1` to exclude (seed 002 section 2.4). */
export interface TagFilter {
  include: { key: string; value: string }[];
  exclude: { key: string; value: string }[];
}

export function parseTags(value: string | string[] | Record<string, string> | undefined): TagFilter {
  const out: TagFilter = { include: [], exclude: [] };
  if (value === undefined) return out;
  if (!Array.isArray(value) && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) out.include.push({ key, value: v });
    return out;
  }
  const entries = typeof value === 'string' ? splitUnescaped(value) : value;
  for (const raw of entries) {
    let entry = raw.trim();
    let exclude = false;
    const state = /:(-?1)$/.exec(entry);
    if (state) {
      exclude = state[1] === '-1';
      entry = entry.slice(0, state.index);
    }
    if (entry.startsWith('!')) {
      exclude = true;
      entry = entry.slice(1);
    }
    const sep = entry.indexOf('____');
    const tag = sep < 0 ? { key: entry, value: '' } : { key: entry.slice(0, sep), value: entry.slice(sep + 4) };
    if (!tag.key) continue;
    (exclude ? out.exclude : out.include).push(tag);
  }
  return out;
}

export const tagsValue = z
  .union([z.string().max(4000), z.array(z.string().max(500)).max(100), z.record(z.string(), z.string())], {
    error: "tags must be 'key____value' entries (':-1' to exclude), a list of them, or an object",
  })
  .optional();

/** A point in time: an ISO timestamp, a relative expression (`now-2d`) or a duration ago (`2d`). */
export function timeValue(field: string) {
  return z
    .string({ error: `${field} must be a time (an ISO timestamp, 'now-2d' or a duration such as '2d')` })
    .max(100)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const text = v.trim();
      if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
        const d = new Date(text);
        if (!Number.isNaN(d.getTime())) return d;
      } else if (text.startsWith('now')) {
        const d = parseRelativeTime(text, { roundUp: field === 'to' });
        if (d) return d;
      } else {
        const ms = parseDuration(text);
        if (ms !== undefined) return new Date(Date.now() - ms);
      }
      ctx.addIssue({
        code: 'custom',
        message: `${field} is not a valid time: '${text.slice(0, 40)}' (an ISO timestamp, 'now-2d' or a duration such as '2d')`,
      });
      return z.NEVER;
    });
}

/** Bound values for one statement: `sql.p(v)` adds a value and answers its placeholder. */
export class Params {
  readonly values: unknown[] = [];
  p(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

const like = (v: string) => v.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%');

/**
 * `col` kept by an include/exclude filter. `nullAs` is what a NULL column counts as (health
 * NULL is 'unknown'). Exclusions keep rows whose column is NULL (unless nullAs is excluded).
 */
export function includeExcludeSql(sql: Params, col: string, f: IncludeExclude, nullAs?: string): string[] {
  const out: string[] = [];
  if (!f.include.length && !f.exclude.length) return out;
  const expr = nullAs ? `coalesce(${col}, ${sql.p(nullAs)}::text)` : col;
  const match = (values: string[]) => {
    const exact = values.filter((v) => !v.includes('*'));
    const globs = values.filter((v) => v.includes('*')).map(like);
    const parts: string[] = [];
    if (exact.length) parts.push(`${expr} = ANY(${sql.p(exact)}::text[])`);
    if (globs.length) parts.push(`${expr} LIKE ANY(${sql.p(globs)}::text[])`);
    return parts.join(' OR ');
  };
  if (f.include.length) out.push(`(${match(f.include)})`);
  if (f.exclude.length)
    out.push(nullAs ? `NOT (${match(f.exclude)})` : `(${col} IS NULL OR NOT (${match(f.exclude)}))`);
  return out;
}

/** Items kept by a tag filter: every included key matches one of its values; no excluded pair matches. */
export function tagsSql(sql: Params, col: string, f: TagFilter): string[] {
  const out: string[] = [];
  const byKey = new Map<string, string[]>();
  for (const t of f.include) byKey.set(t.key, [...(byKey.get(t.key) ?? []), t.value]);
  for (const [key, values] of byKey) {
    if (values.length === 1) out.push(`${col} @> ${sql.p(JSON.stringify({ [key]: values[0] }))}::jsonb`);
    else out.push(`${col} ->> ${sql.p(key)}::text = ANY(${sql.p(values)}::text[])`);
  }
  for (const t of f.exclude)
    out.push(`NOT (coalesce(${col}, '{}'::jsonb) @> ${sql.p(JSON.stringify({ [t.key]: t.value }))}::jsonb)`);
  return out;
}
