import { parse as parseYaml } from 'yaml';
import { nextRun, parseSchedule, slotPhase } from '../jobs/schedule.ts';

/**
 * A canary's spec as stored in `canaries.spec`: an object whose check lists sit under their type
 * (`http: [...]`, `tcp: [...]`, ...), as seed 002 section 3 describes. GitOps imports may store
 * the spec as YAML or JSON text, or a whole `kind: Canary` document; all three are accepted.
 */
export interface CheckDef {
  /** the list the entry came from: http, tcp, dns, ... (as written, e.g. alertManager) */
  type: string;
  name: string;
  spec: Record<string, unknown>;
}

/** Top-level spec keys that are settings of the canary, not check lists. */
const CANARY_KEYS = new Set([
  'schedule',
  'interval',
  'icon',
  'description',
  'severity',
  'owner',
  'labels',
  'env',
  'resultMode',
]);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

class SpecError extends Error {}

/** The spec object of a stored spec (object, YAML or JSON text, or a Canary document). */
export function specObject(raw: unknown): Record<string, unknown> {
  let spec = raw;
  if (typeof spec === 'string') {
    try {
      spec = parseYaml(spec);
    } catch (err) {
      throw new SpecError(`the canary spec is not valid YAML or JSON: ${(err as Error).message}`);
    }
  }
  if (spec === null || spec === undefined) return {};
  if (!isObject(spec)) throw new SpecError('the canary spec must be an object with check lists such as http: [...]');
  // A full custom resource: apiVersion/kind/metadata/spec.
  if (typeof spec.kind === 'string' && isObject(spec.spec)) return spec.spec;
  return spec;
}

/**
 * One definition per spec entry. Every top-level list of objects is a check list, known type or
 * not: an unknown type still becomes a check (which then fails saying the type is unsupported)
 * rather than silently vanishing. Entries without a name are named after their type and position.
 */
export function parseCanarySpec(raw: unknown): CheckDef[] {
  const spec = specObject(raw);
  const defs: CheckDef[] = [];
  const seen = new Set<string>();
  for (const [key, list] of Object.entries(spec)) {
    if (CANARY_KEYS.has(key) || !Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const type = normaliseType(key);
      let name = typeof entry.name === 'string' && entry.name.trim() ? entry.name.trim() : `${type}-${i + 1}`;
      // Two entries with one name would fight over one check row: the second gets a suffix.
      while (seen.has(`${type}\u0000${name}`)) name = `${name} (${i + 1})`;
      seen.add(`${type}\u0000${name}`);
      defs.push({ type, name, spec: entry });
    });
  }
  return defs;
}

/** The check type stored in checks.type: lower case, as the dashboard's Type column and icons use it. */
function normaliseType(key: string): string {
  const lower = key.toLowerCase();
  return lower === 'mongo' ? 'mongodb' : lower;
}

/** The address a check watches, for the Endpoint column and the search box. */
export function endpointOf(def: CheckDef): string | null {
  const s = def.spec;
  for (const k of ['url', 'endpoint', 'host', 'addr', 'server', 'path', 'connection']) {
    const v = s[k];
    if (typeof v === 'string' && v) {
      if (def.type === 'dns' && k === 'server') return typeof s.query === 'string' ? `${s.query} @${v}` : v;
      return v;
    }
  }
  if (def.type === 'dns' && typeof s.query === 'string') return s.query;
  if (def.type === 'exec' && typeof s.script === 'string') return s.script.split('\n')[0].slice(0, 200);
  return null;
}

const SEVERITIES = new Set(['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical']);

export function severityOf(def: CheckDef, canarySpec: Record<string, unknown>): string {
  const s = def.spec.severity ?? canarySpec.severity;
  return typeof s === 'string' && SEVERITIES.has(s) ? s : 'info';
}

export function labelsOf(def: CheckDef): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(def.spec.labels)) {
    for (const [k, v] of Object.entries(def.spec.labels)) if (v !== null && v !== undefined) out[k] = String(v);
  }
  return out;
}

/**
 * When the canary runs next: its `schedule` (else `spec.schedule`), with the scheduler's spread
 * offset for `@every` schedules (the canary job key is `canary:<id>`); null without a schedule.
 */
export function nextRuntimeOf(
  canary: { id?: string; schedule?: string | null; spec: unknown },
  after = new Date(),
): Date | null {
  let text = canary.schedule || undefined;
  if (!text) {
    try {
      const s = specObject(canary.spec).schedule;
      text = typeof s === 'string' ? s : undefined;
    } catch {
      text = undefined;
    }
  }
  if (!text) return null;
  try {
    const schedule = parseSchedule(text);
    const phase = schedule.kind === 'every' && canary.id ? slotPhase(`canary:${canary.id}`, schedule.ms) : 0;
    const next = nextRun(schedule, new Date(after.getTime() - phase));
    return next ? new Date(next.getTime() + phase) : null;
  } catch {
    return null;
  }
}
