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
import { CelScalar, celFunc, isCelError, isCelList, isCelMap, plan, celEnv, parse, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/**
 * Limits on one evaluation. @bufbuild/cel has no cost limit of its own, and a short expression can
 * ask for a lot: nested comprehensions over list literals multiply (`[0,...,9].all(a, [0,...,9]
 * .all(b, ...))` six deep is a million iterations), and a string doubled inside each level grows
 * exponentially. Evaluation is synchronous on the event loop, so every other request waits for it.
 * A step is one function call or one iteration of a comprehension; a value is measured in
 * characters, bytes, list elements or map entries.
 */
const CEL_LIMITS = {
  /** steps per evaluation (about half a second of work on a slow core; the usual check takes < 100) */
  maxSteps: 500_000,
  /**
   * wall-clock time per evaluation: a backstop for steps that cost more than usual (a regex over a
   * long text, a slow machine); generous, since a busy host or a cold JIT can make a cheap
   * expression take tens of milliseconds
   */
  timeMs: 1000,
  /** the largest string, bytes, list or map an operation may produce */
  maxValueSize: 2_000_000,
  /** collections whose size is not written in the expression count this big in the estimate */
  assumedInputSize: 100,
} as const;

export class CelLimitError extends Error {}

interface Budget {
  steps: number;
  deadline: number;
  exceeded?: string;
}
/** The evaluation in progress (evaluation is synchronous: there is never more than one). */
let budget: Budget | undefined;

function spend(): boolean {
  const b = budget;
  if (!b) return true;
  if (b.exceeded) return false;
  b.steps++;
  if (b.steps > CEL_LIMITS.maxSteps) {
    b.exceeded = `it took more than ${CEL_LIMITS.maxSteps.toLocaleString('en')} steps`;
    return false;
  }
  if ((b.steps & 255) === 0 && performance.now() > b.deadline) {
    b.exceeded = `it ran longer than ${CEL_LIMITS.timeMs} ms`;
    return false;
  }
  return true;
}

function sizeOf(v: unknown): number {
  if (typeof v === 'string' || v instanceof Uint8Array) return v.length;
  if (isCelList(v) || isCelMap(v)) return v.size;
  return 0;
}

/**
 * The hooks the instrumented program calls (see instrument()): once the budget is spent they
 * answer an error, which ends every comprehension at its next iteration and every call at once, so
 * the evaluation unwinds in a few steps and evaluate() reports the limit whatever the result.
 */
const STEP = '@wd_step';
const COST = '@wd_cost';
const hooks = [
  celFunc(STEP, [CelScalar.DYN], CelScalar.DYN, (v: CelValue) => {
    if (!spend()) throw new CelLimitError(budget!.exceeded);
    return v;
  }),
  celFunc(COST, [CelScalar.DYN], CelScalar.DYN, (v: CelValue) => {
    if (!spend()) throw new CelLimitError(budget!.exceeded);
    if (budget && sizeOf(v) > CEL_LIMITS.maxValueSize) {
      budget.exceeded = `it built a value larger than ${CEL_LIMITS.maxValueSize.toLocaleString('en')} characters or elements`;
      throw new CelLimitError(budget.exceeded);
    }
    return v;
  }),
];

const env = celEnv({ funcs: [...strings, ...hooks] });
const programs = new Map<string, ReturnType<typeof plan>>();

type Expr = ReturnType<typeof parse>['expr'];

/**
 * Wraps every call's result in COST and every comprehension's loop condition in STEP, so the
 * evaluator counts its own work. A wrapper passes its value through unchanged (and an error
 * argument never reaches it: the evaluator returns the error first), so results are the same.
 * Names starting with `@` cannot be written in an expression, so a script cannot call the hooks.
 */
function instrument(root: Expr): Expr {
  let nextId = 0n;
  const maxId = (e: Expr | undefined): void => {
    if (!e) return;
    if (e.id > nextId) nextId = e.id;
    forEachChild(e, maxId);
  };
  maxId(root);
  const wrap = (fn: string, e: Expr): Expr =>
    ({
      $typeName: 'cel.expr.Expr',
      id: ++nextId,
      exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args: [e] } },
    }) as unknown as Expr;
  const visit = (e: Expr): Expr => {
    const k = e.exprKind;
    switch (k.case) {
      case 'callExpr':
        if (k.value.target) k.value.target = visit(k.value.target);
        k.value.args = k.value.args.map(visit);
        return wrap(COST, e);
      case 'selectExpr':
        if (k.value.operand) k.value.operand = visit(k.value.operand);
        return e;
      case 'listExpr':
        k.value.elements = k.value.elements.map(visit);
        return e;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.value) entry.value = visit(entry.value);
          if (entry.keyKind.case === 'mapKey') entry.keyKind.value = visit(entry.keyKind.value);
        }
        return e;
      case 'comprehensionExpr': {
        const c = k.value;
        if (c.iterRange) c.iterRange = visit(c.iterRange);
        if (c.accuInit) c.accuInit = visit(c.accuInit);
        if (c.loopCondition) c.loopCondition = wrap(STEP, visit(c.loopCondition));
        if (c.loopStep) c.loopStep = visit(c.loopStep);
        if (c.result) c.result = visit(c.result);
        return e;
      }
      default:
        return e;
    }
  };
  return visit(root);
}

function forEachChild(e: Expr, fn: (child: Expr | undefined) => void): void {
  const k = e.exprKind;
  switch (k.case) {
    case 'callExpr':
      fn(k.value.target);
      k.value.args.forEach(fn);
      break;
    case 'selectExpr':
      fn(k.value.operand);
      break;
    case 'listExpr':
      k.value.elements.forEach(fn);
      break;
    case 'structExpr':
      for (const entry of k.value.entries) {
        fn(entry.value);
        if (entry.keyKind.case === 'mapKey') fn(entry.keyKind.value);
      }
      break;
    case 'comprehensionExpr':
      for (const c of [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result])
        fn(c);
      break;
  }
}

/**
 * The most steps an expression can take, estimated from its text: a comprehension costs its body
 * once per element of what it iterates, a list or map written in the expression has its own size,
 * anything else (a variable, a function's result) is assumed to hold CEL_LIMITS.assumedInputSize
 * items. Used where an expression is saved, so a script that could only ever run into the limit is
 * refused there, with the reason, instead of failing every time it runs.
 */
function estimateCost(expr: string): number {
  const tree = parse(expr).expr;
  const size = (e: Expr | undefined): number => {
    if (!e) return 0;
    const k = e.exprKind;
    if (k.case === 'listExpr') return k.value.elements.length;
    if (k.case === 'structExpr') return k.value.entries.length;
    // map()/filter()/all() over a range keep at most its size; `a + b` of lists adds them up
    if (k.case === 'comprehensionExpr') return size(k.value.iterRange);
    if (k.case === 'callExpr' && k.value.function === '_+_') return k.value.args.reduce((n, a) => n + size(a), 0);
    return CEL_LIMITS.assumedInputSize;
  };
  const cost = (e: Expr | undefined): number => {
    if (!e) return 0;
    const k = e.exprKind;
    if (k.case === 'comprehensionExpr') {
      const c = k.value;
      return (
        cost(c.iterRange) +
        cost(c.accuInit) +
        size(c.iterRange) * (1 + cost(c.loopCondition) + cost(c.loopStep)) +
        cost(c.result)
      );
    }
    let n = k.case === 'callExpr' ? 1 : 0;
    forEachChild(e, (child) => (n += cost(child)));
    return n;
  };
  return cost(tree);
}

/** Why an expression is too costly to accept, or undefined (see estimateCost). */
export function costProblem(expr: string): string | undefined {
  let steps: number;
  try {
    steps = estimateCost(expr);
  } catch {
    return undefined; // compile() reports what does not parse
  }
  if (steps <= CEL_LIMITS.maxSteps) return undefined;
  return `it could take about ${steps > 1e12 ? steps.toExponential(1) : Math.round(steps).toLocaleString('en')} steps, more than the limit of ${CEL_LIMITS.maxSteps.toLocaleString('en')} (nested comprehensions multiply: iterate over fewer or smaller lists)`;
}

export function expressionOf(v: unknown, field: string): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.expr === 'string' && o.expr.trim()) return o.expr.trim();
    for (const other of ['template', 'javascript', 'jsonPath']) {
      if (typeof o[other] === 'string' && (o[other] as string).trim()) {
        throw new Error(
          `${field}.${other} is not supported by this server; write the ${field} as a CEL expression in ${field}.expr`,
        );
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
  return {
    $typeName: 'google.protobuf.Duration',
    seconds: BigInt(seconds),
    nanos: (whole - seconds * 1000) * 1_000_000,
  };
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
      program = plan(env, instrument(parse(expr).expr));
    } catch (err) {
      throw new Error(`invalid CEL expression "${expr}": ${(err as Error).message}`, { cause: err });
    }
    if (programs.size > 5000) programs.clear();
    programs.set(expr, program);
  }
  return program;
}

/**
 * Evaluates an expression within CEL_LIMITS; over a limit it throws a CelLimitError saying which
 * (`CEL expression "..." stopped: it took more than 500,000 steps`), never a stall.
 */
export function evaluate(expr: string, vars: Record<string, unknown>): unknown {
  const program = compile(expr);
  const input = toInput(vars) as Record<string, never>;
  const own: Budget = { steps: 0, deadline: performance.now() + CEL_LIMITS.timeMs };
  const outer = budget;
  budget = own;
  let result: ReturnType<typeof program>;
  try {
    result = program(input);
  } finally {
    budget = outer;
  }
  if (own.exceeded) throw new CelLimitError(`CEL expression "${expr}" stopped: ${own.exceeded}`);
  if (isCelError(result)) throw new Error(`CEL expression "${expr}" failed: ${result.message}`);
  return toJs(result);
}

/** The verdict of a `test` expression: it must evaluate to true or false. */
export function evaluateTest(expr: string, vars: Record<string, unknown>): boolean {
  const r = evaluate(expr, vars);
  if (typeof r !== 'boolean')
    throw new Error(`test expression "${expr}" returned ${JSON.stringify(r)}, not true or false`);
  return r;
}
