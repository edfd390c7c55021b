import type { Db } from '../db/index.ts';
import type { JobContext } from '../jobs/job-history.ts';
import { parseDuration } from '@watchdeck/core';
import { CHECK_RUNNERS, type CheckOutcome, type ChildOutcome } from './checks/index.ts';
import { evaluate, evaluateTest, expressionOf } from '../cel/index.ts';
import type { ConnectionResolver } from './connections.ts';
import { createSandbox, type Sandbox } from '../sandbox/index.ts';
import { recordResults, safeDetail, safeText, type RunResult } from './record.ts';
import { nextRuntimeOf, parseCanarySpec, specObject, type CheckDef } from './spec.ts';
import { checkKey, loadChecks, needsSync, syncCanaryChecks, type CanaryRow, type CheckRow } from './sync.ts';

/**
 * Runs canaries: sync the canary's checks with its spec when they differ, run every check with
 * its timeout (a few at a time), evaluate `test` / `display`, and record the results in one
 * transaction (record.ts). Used by the scheduler (each canary on its schedule, claimed once across
 * replicas) and by Run Now (one check, at once).
 */
export interface HealthEngineOptions {
  /** a check's timeout when its spec gives none */
  defaultTimeoutMs?: number;
  /** checks of one canary that run at the same time */
  concurrency?: number;
  /** where exec checks run their scripts; default: bubblewrap at its Debian path, default limits */
  sandbox?: Sandbox;
  /** told of every check run (metrics): its type ('unsupported' for an unknown one), result, duration */
  onRun?: (type: string, pass: boolean, durationMs: number) => void;
}

export interface CheckRunSummary {
  id: string;
  name: string;
  type: string;
  pass: boolean;
  status: 'healthy' | 'unhealthy';
  time: string;
  duration: number;
  message: string | null;
  error: string | null;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 10 * 60_000;

/** `timeout` in a spec: a duration ('10s', '2m') or milliseconds. */
function timeoutOf(spec: Record<string, unknown>, fallback: number): number {
  const t = spec.timeout;
  let ms: number | undefined;
  if (typeof t === 'number' && t > 0) ms = t;
  else if (typeof t === 'string') ms = /^\d+$/.test(t.trim()) ? Number(t) : parseDuration(t);
  return Math.min(MAX_TIMEOUT_MS, ms && ms > 0 ? ms : fallback);
}

const supported = Object.keys(CHECK_RUNNERS).sort().join(', ');

export class HealthEngine {
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly sandbox: Sandbox;
  private readonly onRun?: HealthEngineOptions['onRun'];
  /**
   * Moves when this process records a status change (a check that flipped) or a Run Now: the
   * summary's cache (routes.ts) answers from a computed summary only while it has not moved.
   */
  changes = 0;

  constructor(
    private readonly db: Db,
    private readonly connections: ConnectionResolver,
    opts: HealthEngineOptions = {},
  ) {
    this.timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.concurrency = opts.concurrency ?? 8;
    this.sandbox = opts.sandbox ?? createSandbox();
    this.onRun = opts.onRun;
  }

  /** Runs one check definition; never throws (a failure is a failing outcome). */
  async execute(def: CheckDef): Promise<{ outcome: CheckOutcome; time: Date; duration: number }> {
    const time = new Date();
    const started = performance.now();
    const timeoutMs = timeoutOf(def.spec, this.timeoutMs);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`timed out after ${timeoutMs / 1000}s (timeout)`)),
      timeoutMs,
    );
    let outcome: CheckOutcome;
    try {
      const runner = CHECK_RUNNERS[def.type];
      if (!runner)
        throw new Error(`${def.type} checks are not supported by this server; supported types: ${supported}`);
      const timedOut = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
      });
      const ctx = { signal: controller.signal, timeoutMs, connections: this.connections, sandbox: this.sandbox };
      outcome = await Promise.race([runner(def.spec, ctx), timedOut]);
    } catch (err) {
      outcome = { pass: false, error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
    const duration = Math.round(performance.now() - started);
    const vars = { ...(outcome.vars ?? {}), duration, check: { name: def.name, type: def.type } };
    try {
      const test = expressionOf(def.spec.test, 'test');
      if (test && outcome.pass && !evaluateTest(test, vars)) {
        outcome = { ...outcome, pass: false, error: `test failed: ${test}` };
      }
      const display = expressionOf(def.spec.display, 'display');
      if (display && outcome.vars) {
        const shown = evaluate(display, vars);
        outcome = { ...outcome, message: typeof shown === 'string' ? shown : JSON.stringify(shown) };
      }
    } catch (err) {
      outcome = { ...outcome, pass: false, error: (err as Error).message };
    }
    // a type named in a spec is anyone's text: only the known ones become a metric label
    this.onRun?.(CHECK_RUNNERS[def.type] ? def.type : 'unsupported', outcome.pass, duration);
    return { outcome, time, duration };
  }

  /** A scheduled (or manual) run of a whole canary. */
  async runCanary(canary: CanaryRow, job?: JobContext, loaded?: CheckRow[]): Promise<RunResult[]> {
    const spec = specObject(canary.spec);
    const defs = parseCanarySpec(spec);
    let rows = loaded ?? (await loadChecks(this.db, canary.id));
    if (needsSync(canary, defs, rows)) rows = await syncCanaryChecks(this.db, canary);
    const byKey = new Map(rows.filter((r) => !r.spec?._parent).map((r) => [checkKey(r.type, r.name), r]));

    const results: RunResult[] = [];
    const discovered: { def: CheckDef; parent: CheckRow; children: ChildOutcome[]; time: Date }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < defs.length) {
        const def = defs[next++];
        const row = byKey.get(checkKey(def.type, def.name));
        if (!row) continue;
        const { outcome, time, duration } = await this.execute(def);
        const result = toResult(row.id, outcome, time, duration);
        results.push(result);
        if (outcome.children) discovered.push({ def, parent: row, children: outcome.children, time });
        // The run's counts and the failing checks' messages, by check name: some failed is a
        // WARNING, all failed a FAILED run (jobs/job-history.ts decides from the counts).
        if (result.pass) job?.success();
        else
          job?.error(
            safeText(result.error, 1000) ?? 'failed',
            errorKeys.has(def.name) ? `${def.name} (${def.type})` : def.name,
          );
        errorKeys.add(def.name);
      }
    };
    const errorKeys = new Set<string>();
    await Promise.all(Array.from({ length: Math.min(this.concurrency, defs.length) }, worker));
    for (const d of discovered) results.push(...(await this.childResults(canary, d.def, d.children, rows, d.time)));

    const nextRuntime = nextRuntimeOf(canary);
    if ((await recordResults(this.db, results, nextRuntime)).length) this.changes++;
    // details.summary is the seeds' "Reconcile Summary" tab, which a canary run has none of.
    return results;
  }

  /**
   * Run Now: runs one check of its canary at once and records it. Answers what it recorded, or
   * undefined when the check does not exist (or was deleted).
   */
  async runCheck(checkId: string): Promise<CheckRunSummary | undefined> {
    const { rows } = await this.db.query<CheckRow & { canary_id: string; canary: CanaryRow }>(
      `SELECT c.id, c.type, c.name, c.spec, c.labels, c.status, c.canary_id,
         to_jsonb(ca) - 'created_by' AS canary
       FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE c.id = $1 AND c.deleted_at IS NULL AND ca.deleted_at IS NULL`,
      [checkId],
    );
    const row = rows[0];
    if (!row) return undefined;
    // The canary's current spec wins over the copy on the check (it may have been edited since).
    const parent = typeof row.spec?._parent === 'string' ? row.spec._parent : undefined;
    const defs = parseCanarySpec(row.canary.spec);
    const def = defs.find((d) => d.type === row.type && d.name === (parent ?? row.name)) ?? {
      type: row.type,
      name: row.name,
      spec: row.spec,
    };
    const { outcome, time, duration } = await this.execute(def);
    // An alert's check is answered by running the Alertmanager entry that found it.
    const all = parent || outcome.children ? await loadChecks(this.db, row.canary_id) : [];
    const parentId = parent
      ? all.find((r) => r.type === def.type && r.name === def.name && !r.spec?._parent)?.id
      : row.id;
    const results: RunResult[] = parentId ? [toResult(parentId, outcome, time, duration)] : [];
    if (outcome.children) results.push(...(await this.childResults(row.canary, def, outcome.children, all, time)));
    let result = results.find((r) => r.checkId === row.id);
    if (!result) {
      result = toResult(row.id, parentId ? { pass: true, message: 'alert not firing' } : outcome, time, duration);
      results.push(result);
    }
    await recordResults(this.db, results, nextRuntimeOf(row.canary));
    this.changes++;
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      pass: result.pass,
      status: result.pass ? 'healthy' : 'unhealthy',
      time: result.time.toISOString(),
      duration: result.duration,
      // as stored (record.ts): NULs escaped, sizes capped
      message: safeText(result.message, 4000),
      error: safeText(result.error, 4000),
    };
  }

  /**
   * Checks found by a run (Alertmanager alerts): upserted as checks of the canary with
   * spec._parent; the ones of the same entry that are no longer reported pass ("resolved").
   * Resolved ones that stayed healthy for a day are soft-deleted, so old alerts do not pile up.
   */
  private async childResults(
    canary: CanaryRow,
    def: CheckDef,
    found: ChildOutcome[],
    rows: CheckRow[],
    time: Date,
  ): Promise<RunResult[]> {
    // An alert's name, description and labels become a check's columns: no NULs (record.ts).
    const children = found.map((c) => ({
      ...c,
      name: safeText(c.name, 500) ?? '',
      description: safeText(c.description, 4000) ?? undefined,
      labels: c.labels ? (JSON.parse(safeDetail(c.labels)!) as Record<string, string>) : undefined,
    }));
    const ids = new Map<string, string>();
    if (children.length) {
      const { rows: upserted } = await this.db.query<{ id: string; name: string }>(
        `INSERT INTO checks (canary_id, agent_id, namespace, type, name, description, icon, labels, spec, severity)
         SELECT $1, $2, $3, $4, d.name, d.description, $4, d.labels, jsonb_build_object('_parent', $5::text), 'high'
         FROM jsonb_to_recordset($6::jsonb) AS d(name text, description text, labels jsonb)
         ON CONFLICT (canary_id, type, name) WHERE deleted_at IS NULL DO UPDATE SET labels = EXCLUDED.labels, description = EXCLUDED.description
         RETURNING id, name`,
        [
          canary.id,
          canary.agent_id,
          canary.namespace,
          def.type,
          def.name,
          JSON.stringify(
            children.map((c) => ({
              name: c.name,
              description: c.description ?? null,
              labels: { ...(canary.labels ?? {}), ...(c.labels ?? {}) },
            })),
          ),
        ],
      );
      for (const r of upserted) ids.set(r.name, r.id);
    }
    const out: RunResult[] = children
      .filter((c) => ids.has(c.name))
      .map((c) => toResult(ids.get(c.name)!, { pass: c.pass, message: c.message, error: c.error }, time, 0));
    const reported = new Set(children.map((c) => c.name));
    for (const r of rows) {
      if (r.type !== def.type || r.spec?._parent !== def.name || reported.has(r.name)) continue;
      if (r.status === 'unhealthy') out.push(toResult(r.id, { pass: true, message: 'alert resolved' }, time, 0));
    }
    await this.db.query(
      `UPDATE checks SET deleted_at = now()
       WHERE canary_id = $1 AND type = $2 AND spec->>'_parent' = $3 AND deleted_at IS NULL
         AND status = 'healthy' AND last_transition_time < now() - interval '1 day'`,
      [canary.id, def.type, def.name],
    );
    return out;
  }
}

function toResult(checkId: string, o: CheckOutcome, time: Date, duration: number): RunResult {
  return {
    checkId,
    time,
    duration,
    pass: o.pass,
    message: o.message ?? null,
    error: o.pass ? null : (o.error ?? 'failed'),
    detail: o.detail ?? null,
  };
}
