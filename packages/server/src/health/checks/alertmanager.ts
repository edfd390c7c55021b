import { baseUrl, getJson } from './prometheus.ts';
import type { CheckContext, CheckOutcome, ChildOutcome } from './types.ts';

/**
 * Alertmanager check (seed 002: host required, alerts, filters, ignore): every active alert
 * (not silenced, not inhibited) becomes a check of its own, failing with the alert's summary;
 * when the alert stops firing its check turns healthy ("alert resolved"). `alerts` keeps only the
 * named alerts, `ignore` drops names (both allow `*` wildcards); `filters` are label matchers
 * passed to Alertmanager. The check itself passes when Alertmanager answers.
 */
interface Alert {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  fingerprint?: string;
}

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
const names = (v: unknown): RegExp[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && !!x).map(glob) : [];

/** The labels that tell two alerts of one name apart, in the check's name. */
const IDENTIFYING = ['namespace', 'pod', 'instance', 'job', 'service', 'deployment', 'node'];

export async function alertmanagerCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const { url, headers } = await baseUrl(spec, ctx, 'host');
  const q = new URLSearchParams({ active: 'true', silenced: 'false', inhibited: 'false' });
  const filters = spec.filters && typeof spec.filters === 'object' ? (spec.filters as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(filters)) q.append('filter', `${k}="${String(v).replace(/"/g, '\\"')}"`);
  const alerts = (await getJson(`${url}/api/v2/alerts?${q}`, headers, ctx, 'Alertmanager')) as Alert[];
  if (!Array.isArray(alerts)) throw new Error('Alertmanager answered something that is not a list of alerts');
  const include = names(spec.alerts);
  const ignore = names(spec.ignore);
  const children: ChildOutcome[] = [];
  for (const a of alerts) {
    const labels = a.labels ?? {};
    const alertname = labels.alertname ?? 'alert';
    if (include.length && !include.some((r) => r.test(alertname))) continue;
    if (ignore.some((r) => r.test(alertname))) continue;
    const id = IDENTIFYING.map((k) => labels[k])
      .filter(Boolean)
      .join('/');
    const summary =
      a.annotations?.summary ?? a.annotations?.message ?? a.annotations?.description ?? `${alertname} is firing`;
    children.push({
      name: id ? `${alertname} ${id}` : alertname,
      pass: false,
      message: summary,
      error: `${alertname} firing since ${a.startsAt ?? 'unknown'}: ${summary}`,
      labels: Object.fromEntries(Object.entries(labels).filter(([k]) => k !== 'alertname')),
      description: a.annotations?.description,
    });
  }
  return {
    pass: true,
    message: `${children.length} alert${children.length === 1 ? '' : 's'} firing`,
    vars: { alerts: children.map((c) => c.name), count: children.length },
    children,
  };
}
