import { isUuid, parseDuration } from '@watchdeck/core';
import { compile, costProblem } from '#server/cel/index.ts';
import { RULE_EVENTS } from './events.ts';
import { repeatIntervalMs } from './engine.ts';

/**
 * Checks writes to `notifications` (rules) and `notification_silences` through /api/db before
 * the SQL (pgrest/write-pipeline.ts), with seed 002 section 5's rules: a rule needs its events, a
 * silence its resource. Also what would otherwise fail later, silently: an unknown event, a
 * filter that is not CEL (or too costly), an unreadable repeat interval or waitFor, two kinds of
 * recipient, a silence that ends before it starts. The first problem is the 400's message.
 */
class NotificationValidationError extends Error {
  readonly statusCode = 400;
  /** check_violation: the engine answers 400 {code, message, details, hint} */
  readonly code = '23514';
  readonly detail: string | undefined;
  readonly hint = 'notifications/README.md in the server lists the fields';
  constructor(readonly problems: string[]) {
    super(problems[0]);
    this.detail = problems.length > 1 ? problems.join('; ') : undefined;
  }
}

export const EVENTS_REQUIRED = 'events: This field is required (choose at least one event)';
export const RESOURCE_REQUIRED = 'A silence requires a resource: choose a catalog item, component, check or canary';
const RESOURCE_COLUMNS = ['config_id', 'component_id', 'check_id', 'canary_id'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const given = (v: unknown) => v !== undefined && v !== null && v !== '';

function checkRule(row: Record<string, unknown>, partial: boolean, problems: string[]) {
  if (!partial || 'events' in row) {
    const events = row.events;
    if (!Array.isArray(events) || events.length === 0) problems.push(EVENTS_REQUIRED);
    else {
      const unknown = events.filter((e) => !(RULE_EVENTS as readonly unknown[]).includes(e));
      if (unknown.length)
        problems.push(
          `events: unknown event ${unknown.map((e) => `'${String(e)}'`).join(', ')}; choose among ${RULE_EVENTS.join(', ')}`,
        );
    }
  }
  if (typeof row.filter === 'string' && row.filter.trim()) {
    try {
      compile(row.filter.trim());
      const cost = costProblem(row.filter.trim());
      if (cost) problems.push(`filter: ${cost}`);
    } catch (err) {
      problems.push(`filter: ${(err as Error).message}`);
    }
  } else if (given(row.filter) && typeof row.filter !== 'string')
    problems.push('filter must be a CEL expression (text)');
  if (given(row.repeat_interval)) {
    if (typeof row.repeat_interval !== 'string' || !repeatIntervalMs(row.repeat_interval))
      problems.push(`repeat_interval: '${String(row.repeat_interval)}' is not a duration (1h, 2h, 3h, 6h, 1d, 1w, 1m)`);
  }
  if (given(row.properties)) {
    if (!isObject(row.properties)) problems.push('properties must be a JSON object');
    else if (
      given(row.properties.waitFor) &&
      (typeof row.properties.waitFor !== 'string' || !parseDuration(row.properties.waitFor))
    )
      problems.push(`properties.waitFor: '${String(row.properties.waitFor)}' is not a duration (e.g. 5m)`);
  }
  const recipients = [
    given(row.person_id),
    given(row.team_id),
    Array.isArray(row.custom_services) && row.custom_services.length > 0,
  ];
  if (recipients.filter(Boolean).length > 1)
    problems.push('Only one recipient applies: a person, a team or a connection');
  for (const col of ['person_id', 'team_id'] as const) {
    if (given(row[col]) && (typeof row[col] !== 'string' || !isUuid(row[col] as string)))
      problems.push(`${col} must be an id`);
  }
  if (given(row.custom_services)) {
    if (!Array.isArray(row.custom_services)) problems.push('custom_services must be a list');
    else if (
      row.custom_services.some(
        (s) => !isObject(s) || (typeof s.connection !== 'string' && typeof s.connection_id !== 'string'),
      )
    )
      problems.push('custom_services: each entry names its connection (connection://<namespace>/<name>)');
  }
}

function checkSilence(row: Record<string, unknown>, partial: boolean, problems: string[]) {
  const touched = RESOURCE_COLUMNS.filter((c) => c in row);
  const set = RESOURCE_COLUMNS.filter((c) => given(row[c]));
  if ((!partial || touched.length) && set.length === 0) problems.push(RESOURCE_REQUIRED);
  if (set.length > 1) problems.push(`A silence names one resource; ${set.join(' and ')} are both set`);
  for (const c of set) if (typeof row[c] !== 'string' || !isUuid(row[c] as string)) problems.push(`${c} must be an id`);
  if (!partial && !given(row.until)) problems.push('until: This field is required');
  const from = given(row.from) ? Date.parse(String(row.from)) : partial ? NaN : Date.now();
  const until = given(row.until) ? Date.parse(String(row.until)) : NaN;
  if (given(row.from) && !Number.isFinite(from)) problems.push('from is not a date and time');
  if (given(row.until) && !Number.isFinite(until)) problems.push('until is not a date and time');
  if (Number.isFinite(from) && Number.isFinite(until) && until <= from) problems.push('until must be after from');
  if (given(row.recursive) && typeof row.recursive !== 'boolean') problems.push('recursive must be true or false');
}

export function validateNotificationWrite(table: string, method: string, rawBody: unknown): void {
  if (method !== 'POST' && method !== 'PATCH') return;
  let body: unknown;
  try {
    body = typeof rawBody === 'string' ? JSON.parse(rawBody) : rawBody;
  } catch {
    return; // the engine answers malformed JSON itself
  }
  const rows = Array.isArray(body) ? body : [body];
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (!isObject(row)) return;
    const before = problems.length;
    if (table === 'notifications') checkRule(row, method === 'PATCH', problems);
    else checkSilence(row, method === 'PATCH', problems);
    if (rows.length > 1) for (let j = before; j < problems.length; j++) problems[j] = `[${i}] ${problems[j]}`;
  });
  if (problems.length) throw new NotificationValidationError(problems);
}
