/**
 * The /health filters: the `labels` URL parameter (JSON: label id -> 1 include, -1 exclude),
 * the text query, Hide Passing and the active tab. A label id is `key=value`.
 */
import { triStateToFilter, type TriState, type TriStateMap } from '@watchdeck/core';
import type { CheckSummary } from '../api/types.ts';

const labelId = (key: string, value: string) => `${key}=${value}`;

export function splitLabelId(id: string): [string, string] {
  const i = id.indexOf('=');
  return i < 0 ? [id, ''] : [id.slice(0, i), id.slice(i + 1)];
}

/** Reads the labels parameter; anything that isn't a map of 1/-1 is ignored rather than fatal. */
export function decodeLabelsParam(text: string | null | undefined): TriStateMap {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: TriStateMap = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      const n = Number(v);
      if (n === 1 || n === -1) out[k] = n as TriState;
    }
    return out;
  } catch {
    return {};
  }
}

export function encodeLabelsParam(map: TriStateMap): string | null {
  const entries = Object.entries(map).filter(([, v]) => v === 1 || v === -1);
  return entries.length ? JSON.stringify(Object.fromEntries(entries)) : null;
}

/** What the summary call is sent: `key=value,!key=value` (exclusions prefixed with '!'). */
export function labelsFilterParam(map: TriStateMap): string | undefined {
  return triStateToFilter(map);
}

export interface LabelOption {
  id: string;
  key: string;
  value: string;
  count: number;
}

/** Every label key=value among the checks, with how many checks carry it, sorted by key then value. */
export function labelOptions(checks: readonly CheckSummary[]): LabelOption[] {
  const counts = new Map<string, LabelOption>();
  for (const c of checks) {
    for (const [key, value] of Object.entries(c.labels)) {
      const id = labelId(key, value);
      const o = counts.get(id);
      if (o) o.count++;
      else counts.set(id, { id, key, value, count: 1 });
    }
  }
  return [...counts.values()].sort((a, b) => a.key.localeCompare(b.key) || a.value.localeCompare(b.value));
}

export function labelKeys(checks: readonly CheckSummary[]): string[] {
  const keys = new Set<string>();
  for (const c of checks) for (const k of Object.keys(c.labels)) keys.add(k);
  return [...keys].sort((a, b) => a.localeCompare(b));
}

/**
 * Label tri-state semantics, the same as the summary route applies to what it is sent: a check
 * must carry every included label and none of the excluded ones.
 */
export function matchesLabels(check: Pick<CheckSummary, 'labels'>, map: TriStateMap): boolean {
  for (const [id, state] of Object.entries(map)) {
    const [key, value] = splitLabelId(id);
    const has = check.labels[key] === value;
    if (state === 1 ? !has : has) return false;
  }
  return true;
}

/** The search box: name, description or endpoint contains the text (case-insensitive). */
export function matchesQuery(check: Pick<CheckSummary, 'name' | 'description' | 'endpoint'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [check.name, check.description, check.endpoint].some((v) => !!v && v.toLowerCase().includes(q));
}
