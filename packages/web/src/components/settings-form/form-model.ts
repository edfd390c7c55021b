import { parse, parseDocument, stringify } from 'yaml';
import type { SettingsResourceConfig, SettingsRow } from './types.ts';

/** The spec form's values: documents are edited as text (labels JSON, spec YAML, the Code tab). */
export interface ResourceFormValues {
  name: string;
  icon: string;
  namespace: string;
  labels: string;
  schedule: string;
  spec: string;
  code: string;
}

export const LABELS_JSON_MESSAGE = 'Labels must be a JSON object of strings';
export const SPEC_YAML_MESSAGE = 'Spec must be a YAML mapping';
export const CODE_YAML_MESSAGE = 'The resource must be a YAML mapping';

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function parseLabels(text: string): Record<string, string> | undefined {
  if (!text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) && Object.values(v).every((x) => typeof x === 'string')
      ? (v as Record<string, string>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A YAML mapping, {} for an empty document, undefined when it does not parse to a mapping. */
export function parseYamlMapping(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return {};
  try {
    const v: unknown = parse(text);
    if (v === null || v === undefined) return {};
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export const toYaml = (v: unknown) => (isRecord(v) && !Object.keys(v).length ? '' : stringify(v));

/** The form values for a row (or the defaults of a new resource). */
export function initialValues(c: SettingsResourceConfig, row: SettingsRow | null | undefined): ResourceFormValues {
  const values: ResourceFormValues = {
    name: row ? (row.name ?? '') : '',
    icon: row?.icon ?? '',
    namespace: row?.namespace ?? 'default',
    // '{}' rather than nothing: an empty document is not JSON, and the editor would flag it.
    labels: row?.labels && Object.keys(row.labels).length ? JSON.stringify(row.labels, null, 2) : '{}',
    schedule: row?.schedule ?? '',
    spec: row?.spec ? toYaml(row.spec) : '',
    code: '',
  };
  values.code = toYaml(codeDocument(c, values, row));
  return values;
}

/**
 * The payload the form writes. The Schedule select is the resource's schedule; when the spec
 * also carries a `schedule` key it is kept equal, so the YAML never contradicts the select. A
 * schedule typed in the spec while the select says None is the schedule (never dropped).
 */
export function formPayload(c: SettingsResourceConfig, v: ResourceFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = { name: v.name.trim() };
  const spec = c.fields.includes('spec') ? (parseYamlMapping(v.spec) ?? {}) : undefined;
  const typed = typeof spec?.schedule === 'string' ? spec.schedule.trim() : '';
  const schedule = v.schedule || typed;
  if (c.fields.includes('icon')) out.icon = v.icon.trim() || null;
  if (c.fields.includes('namespace')) out.namespace = v.namespace.trim() || 'default';
  if (c.fields.includes('labels')) out.labels = parseLabels(v.labels) ?? {};
  if (c.fields.includes('schedule')) out.schedule = schedule || null;
  if (spec) {
    if (c.fields.includes('schedule') && 'schedule' in spec) {
      if (schedule) spec.schedule = schedule;
      else delete spec.schedule;
    }
    out.spec = spec;
  }
  return out;
}

/** The `schedule` of a spec document: a string, undefined without one, null when it does not parse. */
export function scheduleInSpec(text: string): string | undefined | null {
  const spec = parseYamlMapping(text);
  if (!spec) return null;
  return typeof spec.schedule === 'string' && spec.schedule.trim() ? spec.schedule.trim() : undefined;
}

/**
 * The spec text with its `schedule` key set to the select's choice (removed for None), the rest
 * of the document, comments included, as written. A spec without the key is left alone: the
 * select's schedule is the resource's own column.
 */
export function withSpecSchedule(text: string, schedule: string): string {
  if (scheduleInSpec(text) === null) return text;
  const doc = parseDocument(text);
  if (!doc.has('schedule')) return text;
  if (schedule) doc.set('schedule', schedule);
  else doc.delete('schedule');
  return doc.toString();
}

/** What the Code tab shows: the editable columns of the resource as one YAML document. */
export function codeDocument(
  c: SettingsResourceConfig,
  v: ResourceFormValues,
  row?: SettingsRow | null,
): Record<string, unknown> {
  if (c.codeFields) {
    return Object.fromEntries(
      c.codeFields.filter((k) => row && row[k] !== null && row[k] !== undefined).map((k) => [k, row![k]]),
    );
  }
  // Empty optional columns (icon: null) are left out rather than shown as nulls.
  return Object.fromEntries(Object.entries(formPayload(c, v)).filter(([, x]) => x !== null));
}

/** Form values from a Code tab document; undefined when it is not a mapping (it is then ignored). */
export function valuesFromCode(
  c: SettingsResourceConfig,
  code: string,
  current: ResourceFormValues,
): ResourceFormValues | undefined {
  const doc = parseYamlMapping(code);
  if (!doc) return undefined;
  const str = (k: string, fallback: string) =>
    typeof doc[k] === 'string' ? (doc[k] as string) : doc[k] == null ? '' : fallback;
  return {
    ...current,
    name: str('name', current.name),
    icon: str('icon', current.icon),
    namespace: str('namespace', current.namespace) || 'default',
    labels: isRecord(doc.labels) && Object.keys(doc.labels).length ? JSON.stringify(doc.labels, null, 2) : '{}',
    // a schedule only in the spec is the schedule (formPayload keeps the two equal)
    schedule:
      str('schedule', current.schedule) ||
      (isRecord(doc.spec) && typeof doc.spec.schedule === 'string' ? doc.spec.schedule : ''),
    spec: isRecord(doc.spec) ? toYaml(doc.spec) : '',
    code,
  };
}
