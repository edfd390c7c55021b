/**
 * Tri-state filters in the URL (seed 000 section 5): entries `value:1` (include) or `value:-1`
 * (exclude), comma separated, with commas and colons inside values escaped by a backslash.
 * On the server side the same state becomes `col=filter.a,!b` (exclusions prefixed with '!').
 */
export type TriState = 1 | -1;
export type TriStateMap = Record<string, TriState>;

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/:/g, '\\:');

const unescape = (v: string) => v.replace(/\\(.)/g, '$1');

export function encodeTriState(map: TriStateMap): string {
  return Object.entries(map)
    .filter(([, v]) => v === 1 || v === -1)
    .map(([k, v]) => `${escape(k)}:${v}`)
    .join(',');
}

export function decodeTriState(text: string | null | undefined): TriStateMap {
  const out: TriStateMap = {};
  if (!text) return out;
  // Split entries on unescaped commas while keeping escapes for the colon split.
  const entries: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      cur += text[i] + text[i + 1];
      i++;
    } else if (text[i] === ',') {
      entries.push(cur);
      cur = '';
    } else cur += text[i];
  }
  entries.push(cur);
  for (const entry of entries) {
    const idx = entry.search(/(?<!\\):-?1$/);
    if (idx < 0) continue;
    const key = unescape(entry.slice(0, idx));
    const state = Number(entry.slice(idx + 1)) as TriState;
    if (key) out[key] = state;
  }
  return out;
}

/** The server filter value for a tri-state map: includes as-is, exclusions with '!'. */
export function triStateToFilter(map: TriStateMap): string | undefined {
  const parts = Object.entries(map).map(([k, v]) => `${v === -1 ? '!' : ''}${k.replace(/([,!\\])/g, '\\$1')}`);
  return parts.length ? parts.join(',') : undefined;
}
