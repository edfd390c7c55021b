import { KubeError } from './status.ts';

/**
 * Kubernetes label selectors (`?labelSelector=`): `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k` (exists) and `!k` (does not exist), comma-separated, all must hold.
 * Turned into SQL over a jsonb labels expression with every key and value a bound parameter.
 */
export type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'absent' };

const KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;
const VALUE = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?)?$/;
const MAX_REQUIREMENTS = 50;

/** Splits on commas outside parentheses. */
function split(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

function bad(message: string): never {
  throw new KubeError(400, 'BadRequest', `unable to parse requirement: ${message}`);
}

function checkKey(key: string) {
  if (key.length > 317 || !KEY.test(key)) bad(`invalid label key "${key}"`);
}
function checkValue(value: string) {
  if (value.length > 63 || !VALUE.test(value)) bad(`invalid label value "${value}"`);
}

export function parseLabelSelector(selector: string): Requirement[] {
  const parts = split(selector);
  if (parts.length > MAX_REQUIREMENTS) bad(`at most ${MAX_REQUIREMENTS} requirements`);
  return parts.map((p): Requirement => {
    let m = /^(\S+?)\s*(==|!=|=)\s*(\S*)$/.exec(p);
    if (m) {
      checkKey(m[1]);
      checkValue(m[3]);
      return { key: m[1], op: m[2] === '!=' ? 'neq' : 'eq', value: m[3] };
    }
    m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(p);
    if (m) {
      checkKey(m[1]);
      const values = m[3]
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      if (!values.length) bad(`"${p}": a set needs at least one value`);
      values.forEach(checkValue);
      return { key: m[1], op: m[2] as 'in' | 'notin', values };
    }
    m = /^(!?)(\S+)$/.exec(p);
    if (m) {
      checkKey(m[2]);
      return { key: m[2], op: m[1] ? 'absent' : 'exists' };
    }
    return bad(`"${p}"`);
  });
}

/** SQL conditions (ANDed) over `labels` (a jsonb expression); values pushed with `param`. */
export function selectorSql(reqs: Requirement[], labels: string, param: (v: unknown) => string): string[] {
  return reqs.map((r) => {
    const key = param(r.key);
    switch (r.op) {
      case 'eq':
        return `${labels}->>${key} = ${param(r.value)}`;
      case 'neq':
        return `${labels}->>${key} IS DISTINCT FROM ${param(r.value)}`;
      case 'in':
        return `${labels}->>${key} = ANY(${param(r.values)}::text[])`;
      case 'notin':
        return `NOT coalesce(${labels}->>${key} = ANY(${param(r.values)}::text[]), false)`;
      case 'exists':
        return `${labels} ? ${key}`;
      case 'absent':
        return `NOT (${labels} ? ${key})`;
    }
  });
}
