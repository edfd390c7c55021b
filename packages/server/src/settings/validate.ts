import type { z } from 'zod';
import { parseSchedule } from '../jobs/schedule.ts';
import { kindByTable, type SettingsKind } from './kinds.ts';

/**
 * Checks a write to a settings table before the database sees it: the spec against its kind's
 * schema, schedules with the scheduler's own parser, labels as a string map, a non-empty name.
 * The first problem becomes a 400 whose message names the field (`spec.http[0].url is required`);
 * every problem is listed in `details`.
 */
class SettingsValidationError extends Error {
  readonly statusCode = 400;
  /** PostgreSQL's check_violation: the /api/db engine maps it to 400 like a database error. */
  readonly code = '23514';
  readonly detail: string | undefined;
  readonly hint: string;
  constructor(
    readonly problems: string[],
    readonly table: string,
  ) {
    super(problems[0]);
    this.detail = problems.length > 1 ? problems.join('; ') : undefined;
    this.hint = `The spec schema is served at /api/schemas/${kindByTable.get(table)?.kind}.schema.json`;
  }
}

/** `spec.http[0].url` from a zod path. */
function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** The value at a zod path of the document (undefined when absent). */
function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let cur = doc;
  for (const p of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

function describeIssue(prefix: string, issue: z.core.$ZodIssue, doc: unknown): string {
  const field = fieldPath(prefix, issue.path);
  if (issue.code === 'invalid_type' && valueAt(doc, issue.path) === undefined) return `${field} is required`;
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) return `${field} is required`;
  return `${field}: ${issue.message}`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function checkSchedule(field: string, value: unknown, problems: string[]) {
  if (value === null || value === undefined || value === '') return;
  if (typeof value !== 'string') return void problems.push(`${field} must be a string`);
  try {
    parseSchedule(value);
  } catch (err) {
    problems.push(`${field}: ${(err as Error).message}`);
  }
}

/** The problems of one row as written (a partial row for PATCH). */
export function rowProblems(kind: SettingsKind, row: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  if (creating || 'name' in row) {
    if (typeof row.name !== 'string' || !row.name.trim()) problems.push('name is required');
  }
  if ('labels' in row && row.labels !== null) {
    if (!isPlainObject(row.labels) || !Object.values(row.labels).every((v) => typeof v === 'string')) {
      problems.push('labels must be a JSON object whose values are strings');
    }
  }
  if ('schedule' in row) checkSchedule('schedule', row.schedule, problems);
  if ('spec' in row) {
    if (!isPlainObject(row.spec)) {
      problems.push('spec must be an object');
    } else {
      const result = kind.spec.safeParse(row.spec);
      if (!result.success) problems.push(...result.error.issues.map((i) => describeIssue('spec', i, row.spec)));
      if (kind.scheduled) checkSchedule('spec.schedule', row.spec.schedule, problems);
    }
  }
  return problems;
}

/**
 * Validates a /api/db write body for `table`. Tables that are not settings kinds, and bodies the
 * engine will reject as malformed anyway, pass through untouched.
 */
export function validateSettingsWrite(table: string, method: string, rawBody: unknown): void {
  const kind = kindByTable.get(table);
  if (!kind || (method !== 'POST' && method !== 'PATCH' && method !== 'PUT')) return;
  let body: unknown = rawBody;
  if (typeof rawBody === 'string') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      return; // the engine answers PGRST102
    }
  }
  const rows = Array.isArray(body) ? body : [body];
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (!isPlainObject(row)) return;
    const found = rowProblems(kind, row, method !== 'PATCH');
    problems.push(...(rows.length > 1 ? found.map((p) => `[${i}] ${p}`) : found));
  });
  if (problems.length) throw new SettingsValidationError(problems, table);
}
