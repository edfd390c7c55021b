import { isCelError, isCelList, isCelMap, plan, celEnv, parse, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/**
 * CEL (DESIGN.md: @bufbuild/cel), the one expression language of the server: a check's `test` and
 * `display` expressions (health/engine.ts) and the incidents' definition-of-done scripts
 * (incidents/dod.ts). Spec fields take `test: {expr: "..."}` (canary-checker's script selector) or a
 * plain string. Programs are compiled once per expression text and cached, since the same
 * expression runs on every schedule tick.
 *
 * Inputs are JSON-like values; celTimestamp() and celDuration() make CEL timestamps and durations
 * (so `now - check.last_transition_time > duration("5m")` compares real times).
 */
const env = celEnv({ funcs: strings });
const programs = new Map<string, ReturnType<typeof plan>>();

export function expressionOf(v: unknown, field: string): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.expr === 'string' && o.expr.trim()) return o.expr.trim();
    for (const other of ['template', 'javascript', 'jsonPath']) {
      if (typeof o[other] === 'string' && (o[other] as string).trim()) {
        throw new Error(`${field}.${other} is not supported by this server; write the ${field} as a CEL expression in ${field}.expr`);
      }
    }
  }
  return undefined;
}

/** A CEL timestamp (google.protobuf.Timestamp) for a JS date or an ISO text. */
export function celTimestamp(at: Date | string): CelMessage {
  const ms = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(ms)) throw new Error(`not a timestamp: ${String(at)}`);
  const seconds = Math.floor(ms / 1000);
  return { $typeName: 'google.protobuf.Timestamp', seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** A CEL duration (google.protobuf.Duration) of `ms` milliseconds. */
export function celDuration(ms: number): CelMessage {
  const whole = Math.trunc(ms);
  const seconds = Math.trunc(whole / 1000);
  return { $typeName: 'google.protobuf.Duration', seconds: BigInt(seconds), nanos: (whole - seconds * 1000) * 1_000_000 };
}

/** The well-known protobuf messages CEL takes as timestamps and durations, passed through as they are. */
interface CelMessage {
  $typeName: 'google.protobuf.Timestamp' | 'google.protobuf.Duration';
  seconds: bigint;
  nanos: number;
}
const isCelMessage = (v: object): v is CelMessage => typeof (v as { $typeName?: unknown }).$typeName === 'string';

/** JSON-safe input: Dates become ISO strings, bigints numbers, undefined is dropped. */
function toInput(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && isCelMessage(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (Array.isArray(v)) return v.map(toInput);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toInput(x);
    return out;
  }
  return v;
}

function toJs(v: CelValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (isCelList(v)) return [...v].map((x) => toJs(x as CelValue));
  if (isCelMap(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) out[String(k)] = toJs(x as CelValue);
    return out;
  }
  return v;
}

/** The compiled program of an expression; throws `invalid CEL expression "...": <why>` when it does not parse. */
export function compile(expr: string): ReturnType<typeof plan> {
  let program = programs.get(expr);
  if (!program) {
    try {
      program = plan(env, parse(expr));
    } catch (err) {
      throw new Error(`invalid CEL expression "${expr}": ${(err as Error).message}`, { cause: err });
    }
    if (programs.size > 5000) programs.clear();
    programs.set(expr, program);
  }
  return program;
}

export function evaluate(expr: string, vars: Record<string, unknown>): unknown {
  const program = compile(expr);
  const input = toInput(vars) as Record<string, never>;
  const result = program(input);
  if (isCelError(result)) throw new Error(`CEL expression "${expr}" failed: ${result.message}`);
  return toJs(result);
}

/** The verdict of a `test` expression: it must evaluate to true or false. */
export function evaluateTest(expr: string, vars: Record<string, unknown>): boolean {
  const r = evaluate(expr, vars);
  if (typeof r !== 'boolean') throw new Error(`test expression "${expr}" returned ${JSON.stringify(r)}, not true or false`);
  return r;
}
