import { connectionTypeDef, SECRET_MASK, type ConnectionField } from '@watchdeck/core';

/**
 * Checks a write to `connections` through /api/db before the database sees it (the engine's
 * pre-SQL hook, like settings/validate.ts): a known type, the type's required fields (seed 002
 * section 5: 'This field is required'), well-formed secret references and no credentials inside
 * the url (it is returned in clear).
 * The first problem is the 400's message; all of them are in `details`.
 */
class ConnectionValidationError extends Error {
  readonly statusCode = 400;
  /** check_violation: the engine maps it to 400 with {code, message, details, hint} */
  readonly code = '23514';
  readonly detail: string | undefined;
  readonly hint = 'Field lists per type: packages/core/src/connection-types.ts';
  constructor(readonly problems: string[]) {
    super(problems[0]);
    this.detail = problems.length > 1 ? problems.join('; ') : undefined;
  }
}

const REQUIRED = 'This field is required';
const REFERENCE_PREFIX = /^(secret|configmap|helm):\/\//;
const REFERENCE = /^(secret|configmap|helm):\/\/[^/]+\/.+$/;
const TEXT_COLUMNS = ['url', 'username', 'password', 'certificate'] as const;

// The mask the API shows for a stored secret means "unchanged" (the engine keeps the stored one),
// so on a new row it is no value at all.
const blank = (v: unknown) =>
  v === undefined || v === null || v === SECRET_MASK || (typeof v === 'string' && v.trim() === '');
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function checkRow(row: Record<string, unknown>, partial: boolean, problems: string[]) {
  if (!partial || 'name' in row) {
    if (typeof row.name !== 'string' || !row.name.trim()) problems.push(`name: ${REQUIRED}`);
  }
  if ('namespace' in row && (typeof row.namespace !== 'string' || !row.namespace.trim()))
    problems.push(`namespace: ${REQUIRED}`);
  for (const col of TEXT_COLUMNS) {
    const v = row[col];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') {
      problems.push(`${col} must be a string`);
      continue;
    }
    if (REFERENCE_PREFIX.test(v) && !REFERENCE.test(v)) {
      problems.push(`${col}: a reference is secret://<name>/<key>, configmap://<name>/<key> or helm://<release>/<key>`);
    }
  }
  if (typeof row.url === 'string' && row.url) {
    try {
      if (new URL(row.url).password)
        problems.push(
          'url: put the password in the password field; the url is shown to everyone who may read connections',
        );
    } catch {
      // not every url is a URL (restic repositories, git@host:repo): nothing embedded to find
    }
  }
  if ('insecure_tls' in row && row.insecure_tls !== null && typeof row.insecure_tls !== 'boolean')
    problems.push('insecure_tls must be true or false');
  if ('properties' in row && row.properties !== null && !isObject(row.properties))
    problems.push('properties must be a JSON object');

  if (!('type' in row)) {
    if (!partial) problems.push(`type: ${REQUIRED}`);
    return;
  }
  const def = typeof row.type === 'string' ? connectionTypeDef(row.type) : undefined;
  if (!def) {
    problems.push(`type: unknown connection type '${String(row.type)}'`);
    return;
  }
  if (partial) return; // a PATCH may change a few fields; the stored row holds the rest
  const props = isObject(row.properties) ? row.properties : {};
  const missing = (f: ConnectionField) => (f.column ? blank(row[f.column]) : blank(props[f.key]));
  for (const f of def.fields) {
    if (!f.required || f.kind === 'checkbox') continue;
    if (missing(f)) problems.push(`${f.column ?? `properties.${f.key}`}: ${REQUIRED} (${f.label})`);
  }
}

export function validateConnectionWrite(table: string, method: string, rawBody: unknown): void {
  if (table !== 'connections' || (method !== 'POST' && method !== 'PATCH')) return;
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
    checkRow(row, method === 'PATCH', problems);
    if (rows.length > 1) for (let j = before; j < problems.length; j++) problems[j] = `[${i}] ${problems[j]}`;
  });
  if (problems.length) throw new ConnectionValidationError(problems);
}
