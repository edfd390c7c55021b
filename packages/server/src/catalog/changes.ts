/**
 * What changed in an item's body between two scrapes: a unified diff of the two bodies as JSON with
 * sorted keys (the `diff` library), an RFC 6902 JSON patch (fast-json-patch) and a one-line summary
 * of the changed paths (`spec.replicas: 3 -> 7`). The fingerprint identifies the change itself, so
 * the same change seen again folds into one row (count, first_observed).
 */
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import jsonPatch, { type Operation } from 'fast-json-patch';

/** Keys sorted at every level: the text a diff compares and the form equality is decided on. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** Whether two JSON values are equal, whatever their key order (no allocation: run on every item of every scrape). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (!Object.hasOwn(y, k) || !sameJson(x[k], y[k])) return false;
    n++;
  }
  for (const k in y) if (Object.hasOwn(y, k)) n--;
  return n === 0;
}

/** The JSON text of a value with sorted keys (equal for equal bodies, whatever their key order). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'null';
}

/** The text a diff compares: a text body as it is, else indented JSON with sorted keys (fast: a scrape may diff thousands). */
function bodyText(value: unknown): string {
  if (typeof value === 'string') return value.endsWith('\n') ? value : `${value}\n`;
  return `${JSON.stringify(canonical(value), null, 2)}\n`;
}

/** `/spec/containers/0/image` -> `spec.containers[0].image` */
function dottedPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || '(root)';
}

function shown(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const MAX_SUMMARY_PATHS = 5;

export interface BodyChange {
  diff: string;
  patches: Operation[];
  summary: string;
  fingerprint: string;
}

/** The change from `before` to `after` (bodies known to differ). */
export function bodyChange(before: unknown, after: unknown, name: string): BodyChange {
  const patches =
    before && after && typeof before === 'object' && typeof after === 'object'
      ? jsonPatch.compare(before as object, after as object)
      : [{ op: 'replace' as const, path: '', value: after }];
  // in path order (fast-json-patch lists an object's keys last first)
  const ordered = [...patches].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts = ordered.slice(0, MAX_SUMMARY_PATHS).map((p) => {
    const path = dottedPath(p.path);
    if (p.op === 'add') return `${path}: added ${shown(p.value)}`;
    if (p.op === 'remove') {
      const old = jsonPatch.getValueByPointer(before, p.path) as unknown;
      return `${path}: removed (was ${shown(old)})`;
    }
    if (p.op === 'replace') {
      const old = p.path ? (jsonPatch.getValueByPointer(before, p.path) as unknown) : before;
      return `${path}: ${shown(old)} -> ${shown(p.value)}`;
    }
    return `${path}: ${p.op}`;
  });
  if (patches.length > MAX_SUMMARY_PATHS) parts.push(`and ${patches.length - MAX_SUMMARY_PATHS} more`);
  const diff = createTwoFilesPatch(name, name, bodyText(before), bodyText(after), undefined, undefined, {
    context: 3,
  });
  const fingerprint = createHash('sha256')
    .update(`diff\n${canonicalJson(patches)}`)
    .digest('hex');
  return { diff, patches, summary: parts.join(', '), fingerprint };
}

/** The fingerprint of a change a source reported: its id in the source, else what it says. */
export function sourceChangeFingerprint(c: {
  externalChangeId?: string;
  changeType: string;
  summary?: string;
  details?: unknown;
  source?: string;
  severity?: string;
}): string {
  const key = c.externalChangeId
    ? `external\n${c.externalChangeId}`
    : `source\n${c.changeType}\n${c.source ?? ''}\n${c.severity ?? ''}\n${c.summary ?? ''}\n${canonicalJson(c.details ?? null)}`;
  return createHash('sha256').update(key).digest('hex');
}
