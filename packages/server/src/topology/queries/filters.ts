/**
 * The listing's filter values: one value ('healthy'), a comma list ('healthy,warning') or the
 * dashboard's tri-state filters as core's triStateToFilter writes them ('Pod,!Job': include Pod,
 * exclude Job; ',', '!' and '\' inside a value escaped with a backslash). Labels are key=value
 * pairs in the same list ('app=web,!tier=db').
 */
import { z } from 'zod';
import { COMPONENT_STATUSES, topologyQuerySchema } from '@watchdeck/core';

export interface IncludeExclude {
  include: string[];
  exclude: string[];
}

/** Splits on unescaped commas; a leading unescaped '!' marks an exclusion. */
export function parseList(text: string | undefined): IncludeExclude {
  const out: IncludeExclude = { include: [], exclude: [] };
  if (!text) return out;
  const entries: { value: string; negated: boolean }[] = [];
  let cur = '';
  let negated = false;
  let started = false;
  const flush = () => {
    if (cur !== '') entries.push({ value: cur, negated });
    cur = '';
    negated = false;
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      cur += text[++i];
      started = true;
    } else if (ch === ',') flush();
    else if (ch === '!' && !started) {
      negated = true;
      started = true;
    } else {
      cur += ch;
      started = true;
    }
  }
  flush();
  for (const e of entries) {
    const value = e.value.trim();
    if (value) (e.negated ? out.exclude : out.include).push(value);
  }
  return out;
}

/** key=value pairs (the value may itself hold '='). */
export function parseLabels(text: string | undefined): {
  include: Record<string, string>[];
  exclude: Record<string, string>[];
} {
  const list = parseList(text);
  const pair = (p: string) => {
    const eq = p.indexOf('=');
    return { [p.slice(0, eq).trim()]: p.slice(eq + 1).trim() };
  };
  return { include: list.include.map(pair), exclude: list.exclude.map(pair) };
}

const STATUS_LIST = COMPONENT_STATUSES.join(', ');

/**
 * core's query schema plus the checks only the server makes: the status values and the shape of
 * the label pairs, each refused with a 400 naming the parameter.
 */
export const listingQuery = topologyQuerySchema.superRefine((q, ctx) => {
  const statuses = parseList(q.status);
  const unknown = [...statuses.include, ...statuses.exclude].find(
    (s) => !(COMPONENT_STATUSES as readonly string[]).includes(s),
  );
  if (unknown !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['status'],
      message: `status must be one of ${STATUS_LIST} (not '${unknown.slice(0, 50)}')`,
    });
  const labels = parseList(q.labels);
  if ([...labels.include, ...labels.exclude].some((p) => p.indexOf('=') < 1))
    ctx.addIssue({
      code: 'custom',
      path: ['labels'],
      message: 'labels must be key=value pairs separated by commas',
    });
});
export type ListingQuery = z.output<typeof listingQuery>;
