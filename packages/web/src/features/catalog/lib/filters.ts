import { decodeTriState, type TriStateMap } from '@watchdeck/core';
import { parseTagEntry } from './format.ts';

/** A PostgREST filter value, quoted so commas, dots and parentheses stay text. */
export function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** A JSON key path segment, quoted when it holds characters PostgREST would read as syntax. */
function jsonKey(key: string): string {
  return /^[A-Za-z0-9_]+$/.test(key) ? key : quoted(key);
}

/** The include and exclude values of a tri-state URL parameter (value:1, value:-1). */
export function splitTriState(text: string | null | undefined): { include: string[]; exclude: string[] } {
  const map: TriStateMap = decodeTriState(text);
  const include: string[] = [];
  const exclude: string[] = [];
  for (const [k, v] of Object.entries(map)) (v === 1 ? include : exclude).push(k);
  return { include, exclude };
}

/**
 * PostgREST filters of a key____value tri-state parameter on a JSON column (labels, tags): an
 * included pair must match, an excluded one must differ or be missing. Each entry is [key, value]
 * as postgrest-js's .filter() / .or() take it.
 */
export function jsonPairFilters(
  column: string,
  text: string | null | undefined,
): { eq: [string, string][]; notEqOr: string[] } {
  const { include, exclude } = splitTriState(text);
  const eq: [string, string][] = [];
  const notEqOr: string[] = [];
  for (const entry of include) {
    const pair = parseTagEntry(entry);
    if (pair) eq.push([`${column}->>${jsonKey(pair.key)}`, pair.value]);
  }
  for (const entry of exclude) {
    const pair = parseTagEntry(entry);
    if (pair) {
      const path = `${column}->>${jsonKey(pair.key)}`;
      notEqOr.push(`${path}.neq.${quoted(pair.value)},${path}.is.null`);
    }
  }
  return { eq, notEqOr };
}

/** PostgREST's in-list syntax: ("a","b"). */
export const inList = (values: readonly string[]) => `(${values.map(quoted).join(',')})`;
