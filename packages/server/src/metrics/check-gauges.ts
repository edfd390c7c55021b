/**
 * Per-check gauges for people who alert from Prometheus (as canary-checker exposes them): each
 * live check's health, last latency and 24-hour uptime, labelled with its id, name, namespace,
 * type, canary and its own labels as `label_<key>`. Rendered here rather than through prom-client
 * gauges: the label keys differ from check to check, and 5,000 checks are 15,000 lines written
 * straight from one query's rows (health's checkGauges).
 *
 * Bounded: one series per check and gauge. Label keys: the `max` most used across the checks
 * (ties by name), sanitised to Prometheus's [a-zA-Z_][a-zA-Z0-9_]*; values are text, at most
 * 200 characters.
 */
import type { CheckGauge, CheckIdentity } from '../health/index.ts';

const MAX_VALUE = 200;

/** A check label key as a Prometheus label name (kube-state-metrics' label_ prefix). */
function promLabelName(key: string): string {
  return `label_${key.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

/** The exposition format's escaping of a label value: backslash, double quote, newline. */
const NEEDS_ESCAPE = /[\\"\n]/;
function escapeValue(v: string): string {
  const s = v.length > MAX_VALUE ? v.slice(0, MAX_VALUE) : v;
  // most names need none: one test instead of three replacements
  return NEEDS_ESCAPE.test(s) ? s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : s;
}

const valueText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The label keys shown: the most used first, at most `max`, one per sanitised name. */
function chooseKeys(rows: CheckGauge[], max: number): [key: string, name: string][] {
  if (max <= 0) return [];
  const counts = new Map<string, number>();
  for (const r of rows) for (const k in r.identity.labels ?? {}) counts.set(k, (counts.get(k) ?? 0) + 1);
  const chosen: [string, string][] = [];
  const names = new Set<string>();
  for (const [k] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const name = promLabelName(k);
    if (names.has(name)) continue;
    names.add(name);
    chosen.push([k, name]);
    if (chosen.length === max) break;
  }
  return chosen;
}

/**
 * A check's label set as text, kept with its identity object (the same object while the check's
 * name, labels and canary are unchanged: health's checkGauges) for as long as the chosen keys stay.
 */
const labelTexts = new WeakMap<CheckIdentity, { keys: string; text: string }>();

function labelText(c: CheckIdentity, keys: [string, string][], signature: string): string {
  const hit = labelTexts.get(c);
  if (hit && hit.keys === signature) return hit.text;
  let text = `check_id="${c.id}",name="${escapeValue(c.name)}",namespace="${escapeValue(c.namespace)}",type="${escapeValue(c.type)}",canary="${escapeValue(c.canary)}"`;
  for (const [k, name] of keys) {
    const v = c.labels?.[k];
    if (v !== undefined && v !== null) text += `,${name}="${escapeValue(valueText(v))}"`;
  }
  labelTexts.set(c, { keys: signature, text });
  return text;
}

export function renderCheckGauges(rows: CheckGauge[], maxLabelKeys: number): string {
  const keys = chooseKeys(rows, maxLabelKeys);
  const signature = keys.map(([k]) => k).join('\u0000');
  let healthy =
    '# HELP watchdeck_check_healthy Whether the check passed its last run (1) or failed it (0)\n# TYPE watchdeck_check_healthy gauge\n';
  let latency =
    "# HELP watchdeck_check_latency_seconds The check's last run duration\n# TYPE watchdeck_check_latency_seconds gauge\n";
  let uptime =
    '# HELP watchdeck_check_uptime_ratio Share of passing runs in the last 24 hours (hourly roll-ups)\n# TYPE watchdeck_check_uptime_ratio gauge\n';
  for (const r of rows) {
    const labels = labelText(r.identity, keys, signature);
    if (r.healthy !== null) healthy += `watchdeck_check_healthy{${labels}} ${r.healthy ? 1 : 0}\n`;
    if (r.latencyMs !== null) latency += `watchdeck_check_latency_seconds{${labels}} ${r.latencyMs / 1000}\n`;
    if (r.uptime !== null) uptime += `watchdeck_check_uptime_ratio{${labels}} ${r.uptime}\n`;
  }
  return healthy + latency + uptime;
}
