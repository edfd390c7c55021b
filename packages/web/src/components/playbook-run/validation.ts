import type { PlaybookParam } from './types.ts';

const REQUIRED_MESSAGE = 'This field is required';

/** dns1123 (seed 000 section 5): lowercase alphanumerics, '-' and '.', starting and ending alphanumeric. */
const DNS1123 = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const BYTES = /^\d+(\.\d+)?(Mi|Gi|Ti)$/;
const MILLICORES = /^\d+m$/;

const num = (v: unknown): number | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * The first rule a parameter's value breaks, or undefined (seed 000 section 5): required, the
 * dns1123/bytes/millicores formats, regex, min/max length and min/max value. A checkbox is always
 * 'true' or 'false', so "required" never blocks it.
 */
export function validateParam(param: PlaybookParam, raw: string | undefined): string | undefined {
  const value = raw ?? '';
  const p = param.properties ?? {};
  const type = param.type ?? 'text';
  if (type === 'checkbox') return undefined;
  if (value.trim() === '') return param.required ? REQUIRED_MESSAGE : undefined;
  if (type !== 'text' && type !== 'code' && type !== 'list') return undefined;
  if (p.format === 'dns1123' && !DNS1123.test(value)) {
    return "Must be lowercase letters, digits, '-' or '.', starting and ending with a letter or digit";
  }
  if (p.format === 'bytes' && !BYTES.test(value)) return 'Must be a size such as 512Mi, 2Gi or 1Ti';
  if (p.format === 'millicores' && !MILLICORES.test(value)) return 'Must be millicores such as 500m';
  const minLength = num(p.minLength);
  const maxLength = num(p.maxLength);
  if (minLength !== undefined && value.length < minLength) return `Must be at least ${minLength} characters`;
  if (maxLength !== undefined && value.length > maxLength) return `Must be at most ${maxLength} characters`;
  if (p.regex) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(p.regex);
    } catch {
      re = undefined; // a spec's broken pattern can't be checked here; the server refuses it
    }
    if (re && !re.test(value)) return `Must match ${p.regex}`;
  }
  const min = num(p.min);
  const max = num(p.max);
  if (min !== undefined || max !== undefined) {
    const n = Number(value);
    if (!Number.isFinite(n)) return 'This field must be a number';
    if (min !== undefined && n < min) return `Must be at least ${min}`;
    if (max !== undefined && n > max) return `Must be at most ${max}`;
  }
  return undefined;
}

/** Every parameter's error, keyed by name (empty when the form is valid). */
export function validateParams(params: readonly PlaybookParam[], values: Record<string, string>) {
  const errors: Record<string, string> = {};
  for (const p of params) {
    const e = validateParam(p, values[p.name]);
    if (e) errors[p.name] = e;
  }
  return errors;
}

/** The form's first values: a checkbox is 'true'/'false'; a resolved default as a string; else empty. */
export function initialValues(params: readonly PlaybookParam[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of params) {
    const d = p.default;
    if (p.type === 'checkbox') out[p.name] = String(d) === 'true' ? 'true' : 'false';
    else if (d === undefined || d === null) out[p.name] = '';
    else out[p.name] = typeof d === 'string' ? d : JSON.stringify(d);
  }
  return out;
}
