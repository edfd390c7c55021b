/**
 * The mapping shared by the generic kinds (file, http, sql, custom push): a document becomes items
 * through the spec's `items` (JSONPath splitting it), `id` / `type` / `name` / `class` (JSONPath
 * when they start with $, else literal), `createFields` / `deleteFields` (the first field present
 * gives created_at / deleted_at, parsed with `timestampFormat`), `labels` and `tags`.
 */
import { firstJsonPath, isJsonPath, queryJsonPath } from './jsonpath.ts';
import type { ScrapeError, ScrapedItem } from './scrape/types.ts';

export interface MappingSpec {
  items?: string;
  id?: string;
  type?: string;
  name?: string;
  class?: string;
  createFields?: string[];
  deleteFields?: string[];
  timestampFormat?: string;
  labels?: Record<string, string>;
  tags?: Record<string, string>;
}

export interface MappingDefaults {
  /** the id of a document that is one item (a file's path, a URL) */
  id: string;
  name: string;
  type?: string;
  source: string;
  format?: ScrapedItem['format'];
}

const GO_TOKENS: [string, string, string][] = [
  // Go layout token, regex, what it is
  ['2006', '(\\d{4})', 'year'],
  ['January', '([A-Za-z]+)', 'monthName'],
  ['Jan', '([A-Za-z]{3})', 'monthName'],
  ['01', '(\\d{2})', 'month'],
  ['02', '(\\d{2})', 'day'],
  ['_2', '\\s?(\\d{1,2})', 'day'],
  ['15', '(\\d{2})', 'hour'],
  ['03', '(\\d{2})', 'hour12'],
  ['04', '(\\d{2})', 'minute'],
  ['05', '(\\d{2})', 'second'],
  ['.000000000', '\\.(\\d{9})', 'fraction'],
  ['.000000', '\\.(\\d{6})', 'fraction'],
  ['.000', '\\.(\\d{3})', 'fraction'],
  ['.999999999', '(?:\\.(\\d+))?', 'fraction'],
  ['.999', '(?:\\.(\\d+))?', 'fraction'],
  ['PM', '(AM|PM)', 'ampm'],
  ['Z07:00', '(Z|[+-]\\d{2}:\\d{2})', 'zone'],
  ['-07:00', '([+-]\\d{2}:\\d{2})', 'zone'],
  ['-0700', '([+-]\\d{4})', 'zone'],
  ['MST', '([A-Z]{3,4})', 'zoneName'],
  ['Monday', '[A-Za-z]+', ''],
  ['Mon', '[A-Za-z]{3}', ''],
  ['1', '(\\d{1,2})', 'month'],
  ['2', '(\\d{1,2})', 'day'],
];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const layouts = new Map<string, { re: RegExp; fields: string[] }>();

function compileLayout(layout: string): { re: RegExp; fields: string[] } {
  const hit = layouts.get(layout);
  if (hit) return hit;
  let re = '';
  const fields: string[] = [];
  let i = 0;
  outer: while (i < layout.length) {
    for (const [token, pattern, field] of GO_TOKENS) {
      if (layout.startsWith(token, i)) {
        re += pattern;
        if (field) fields.push(field);
        i += token.length;
        continue outer;
      }
    }
    re += layout[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    i++;
  }
  const out = { re: new RegExp(`^${re}$`), fields };
  layouts.set(layout, out);
  return out;
}

/**
 * A timestamp from a source: epoch seconds or milliseconds, an ISO text, or text in a Go layout
 * (`timestampFormat: "2006-01-02 15:04:05"`, as the scrapers' users write it). Undefined when
 * it does not parse.
 */
function parseTimestamp(value: unknown, layout?: string): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value);
  const text = String(value).trim();
  if (layout) {
    const { re, fields } = compileLayout(layout);
    const m = re.exec(text);
    if (m) {
      const v: Record<string, string> = {};
      fields.forEach((f, k) => {
        if (m[k + 1] !== undefined) v[f] = m[k + 1];
      });
      const month = v.monthName ? MONTHS.indexOf(v.monthName.slice(0, 3).toLowerCase()) + 1 : Number(v.month ?? 1);
      let hour = Number(v.hour ?? v.hour12 ?? 0);
      if (v.ampm === 'PM' && hour < 12) hour += 12;
      if (v.ampm === 'AM' && hour === 12) hour = 0;
      const ms = v.fraction ? Number(v.fraction.slice(0, 3).padEnd(3, '0')) : 0;
      const utc = Date.UTC(
        Number(v.year ?? 1970),
        month - 1,
        Number(v.day ?? 1),
        hour,
        Number(v.minute ?? 0),
        Number(v.second ?? 0),
        ms,
      );
      let offsetMin = 0;
      const zone = v.zone;
      if (zone && zone !== 'Z') {
        const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
        if (z) offsetMin = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
      }
      const d = new Date(utc - offsetMin * 60_000);
      if (!Number.isNaN(d.getTime())) return d;
    }
  }
  if (/^\d+(\.\d+)?$/.test(text)) return parseTimestamp(Number(text));
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A spec field: a JSONPath over the element, or a literal. */
function field(element: unknown, expr: string | undefined): unknown {
  if (expr === undefined || expr === '') return undefined;
  return isJsonPath(expr) ? firstJsonPath(element, expr) : expr;
}

function text(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function stringMap(element: unknown, map: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!map) return undefined;
  const out: Record<string, string> = {};
  for (const [k, expr] of Object.entries(map)) {
    const v = text(field(element, expr));
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The elements of a document the spec's `items` selects (the document itself without one). */
function splitDocument(doc: unknown, items: string | undefined): unknown[] {
  if (!items) return [doc];
  const found = queryJsonPath(doc, items);
  // `$.items` selects the array itself; its elements are the items
  if (found.length === 1 && Array.isArray(found[0])) return found[0];
  return found;
}

/** Items of one document (a file, an HTTP answer, a row, a pushed object). */
export function mapDocument(
  doc: unknown,
  spec: MappingSpec,
  defaults: MappingDefaults,
): { items: ScrapedItem[]; errors: ScrapeError[] } {
  const items: ScrapedItem[] = [];
  const errors: ScrapeError[] = [];
  const elements = splitDocument(doc, spec.items);
  elements.forEach((element, index) => {
    const type = text(field(element, spec.type)) ?? defaults.type;
    if (!type) {
      errors.push({
        type: defaults.source,
        message: `${defaults.source}: type ${spec.type ?? '(not set)'} gave no value; set spec type`,
      });
      return;
    }
    let id = text(field(element, spec.id));
    if (id === undefined) {
      if (spec.id) {
        errors.push({ type, message: `${defaults.source}: id ${spec.id} matched nothing in item ${index}` });
        return;
      }
      id = elements.length > 1 ? `${defaults.id}#${index}` : defaults.id;
    }
    const name = text(field(element, spec.name)) ?? (spec.id ? id : defaults.name);
    let createdAt: Date | undefined;
    for (const f of spec.createFields ?? []) {
      createdAt = parseTimestamp(field(element, f), spec.timestampFormat);
      if (createdAt) break;
    }
    let deletedAt: Date | undefined;
    for (const f of spec.deleteFields ?? []) {
      deletedAt = parseTimestamp(field(element, f), spec.timestampFormat);
      if (deletedAt) break;
    }
    items.push({
      type,
      externalId: id,
      configClass: text(field(element, spec.class)) ?? type,
      name,
      config: element,
      format: defaults.format ?? 'json',
      source: defaults.source,
      labels: stringMap(element, spec.labels),
      tags: stringMap(element, spec.tags),
      createdAt,
      deletedAt,
    });
  });
  return { items, errors };
}
