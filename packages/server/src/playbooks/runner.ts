/**
 * The run engine (README.md "Lifecycle"). Every server process that runs the engines runs
 * `workers` loops; each claims one due run at a time through the database (FOR UPDATE SKIP
 * LOCKED), holds it with a lease it renews while it works, and runs its actions in order.
 *
 * No action runs twice: an action's row is written (status running) before its effect, and only
 * while this process still holds the run. A run whose process died (lease lapsed) is claimed
 * again and resumed from its last finished action; an action found still `running` was in flight
 * when the process died. Whether its effect happened is unknown, so it is not repeated: it is
 * marked failed with that reason, and the run goes on as after any failed action.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  parsePlaybookDuration,
  playbookSpecSchema,
  renderTemplate,
  type PlaybookAction,
  type PlaybookSpec,
} from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { evaluate } from '#server/cel/index.ts';
import { runJob } from '#server/jobs/index.ts';
import { ActionError, abortMessage, runAction, type ActionDeps, type ActionResult } from './actions.ts';
import { loadResource, type PlaybookResource, type ResourceKind } from './resources.ts';
import { agentsNamed, HANDED_TRIGGER } from './agent-actions.ts';

export interface RunnerOptions {
  processId: string;
  workers: number;
  /** how long a claim lasts without renewal (renewed every third of it) */
  leaseMs?: number;
  /** how often an idle worker looks for due runs */
  pollMs?: number;
  /** this console's URL, for templates (`{{.console.url}}`) */
  publicUrl: string;
}

/** A run's default time limit, and an action's when its spec gives none. */
const DEFAULT_RUN_TIMEOUT_MS = 30 * 60_000;
/**
 * An agent that took an action and has not been heard of (ping, pull, push, poll: every 30 s at
 * most while it lives) for this long is gone: the action fails rather than wait for it.
 */
const AGENT_SILENCE_MS = 90_000;
/** After its time budget, how long a taken action's result may still take to arrive (push every 5 s). */
const AGENT_REPORT_GRACE_MS = 60_000;

interface RunRow {
  id: string;
  playbook_id: string;
  spec: unknown;
  parameters: Record<string, unknown>;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  created_by: string | null;
  trigger_source: string;
  start_time: Date;
  created_at: Date;
  attempts: number;
  request: Record<string, unknown> | null;
}

interface ActionRow {
  id: string;
  name: string;
  status: string;
  result: ActionResult | null;
  error: string | null;
  /** the agents it waits for (runsOn); null: it runs here */
  runs_on: string[] | null;
}

type Outcome = RunContext['actions'][string];

const FINAL_ACTION = new Set(['completed', 'failed', 'skipped', 'cancelled']);

/** What templates and `if` expressions see (README.md "Templates"). */
export interface RunContext {
  params: Record<string, unknown>;
  config?: PlaybookResource;
  component?: PlaybookResource;
  check?: PlaybookResource;
  run: { id: string; playbook_id: string; trigger_source: string; created_by: string | null; request: unknown };
  /** this console: `{{.console.url}}` (WATCHDECK_PUBLIC_URL) */
  console: { url: string };
  actions: Record<string, { status: string; result: ActionResult | null; error: string | null }>;
}

/** Renders every string of an action's fields (not its name, `if` or timing fields). */
function renderAction(action: PlaybookAction, ctx: RunContext): PlaybookAction {
  const render = (v: unknown): unknown => {
    if (typeof v === 'string') return renderTemplate(v, ctx as unknown as Record<string, unknown>);
    if (Array.isArray(v)) return v.map(render);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, render(x)]));
    return v;
  };
  const out: Record<string, unknown> = { ...action };
  for (const k of ['exec', 'http', 'sql', 'notification', 'gitops'] as const) if (action[k]) out[k] = render(action[k]);
  return out as PlaybookAction;
}

/**
 * Whether an action runs: always / success (default: no earlier action failed) / failure (one
 * did) / skip, or a CEL expression over the context.
 */
function shouldRun(action: PlaybookAction, ctx: RunContext): boolean {
  const cond = (action.if ?? 'success').trim();
  const failed = Object.values(ctx.actions).some((a) => a.status === 'failed');
  if (cond === 'always') return true;
  if (cond === 'success' || cond === '') return !failed;
  if (cond === 'failure') return failed;
  if (cond === 'skip') return false;
  const v = evaluate(cond, { ...ctx, failed } as unknown as Record<string, unknown>);
  if (typeof v !== 'boolean') throw new Error(`if: ${cond} gave ${JSON.stringify(v)}, not true or false`);
  return v;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export class PlaybookRunner {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];
  private waiting = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly deps: ActionDeps,
    private readonly log: FastifyBaseLogger,
    private readonly opts: RunnerOptions,
  ) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 1000;
  }

  start(): void {
    for (let i = 0; i < this.opts.workers; i++) this.loops.push(this.loop());
  }

  /** A run was queued here: an idle worker looks now rather than at its next poll. */
  wake(): void {
    for (const w of this.waiting) w();
  }

  async stop(): Promise<void> {
    this.stopping.abort(new Error('the server stopped while this action ran'));
    this.wake();
    await Promise.all(this.loops);
    this.loops = [];
  }

  private async loop(): Promise<void> {
    const stop = this.stopping.signal;
    while (!stop.aborted) {
      let run: RunRow | undefined;
      try {
        run = await this.claim();
      } catch (err) {
        if (!stop.aborted) this.log.warn({ err }, 'playbook runner: claim failed');
      }
      if (run) {
        try {
          await this.execute(run);
        } catch (err) {
          this.log.error({ err, run: run.id }, 'playbook run failed unexpectedly');
          await this.finish(run.id, 'failed', `the runner failed: ${(err as Error).message}`).catch(() => {});
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          this.waiting.delete(done);
          resolve();
        };
        const t = setTimeout(done, this.pollMs);
        this.waiting.add(done);
      });
    }
  }

  /**
   * One due run, claimed and committed at once: first a run whose lease lapsed (its process
   * died; rare), else the longest-due pending or scheduled run. Each is one statement whose
   * subquery locks the row it picks (FOR UPDATE SKIP LOCKED), so workers never wait on each
   * other and never take the same run.
   */
  private async claim(): Promise<RunRow | undefined> {
    for (const due of [
      `status = 'running' AND lease_until < now() ORDER BY lease_until`,
      `status IN ('pending', 'scheduled') AND scheduled_time <= now() ORDER BY scheduled_time`,
    ]) {
      const { rows } = await this.db.query<RunRow>(
        `UPDATE playbook_runs r SET status = 'running', claimed_by = $1,
           lease_until = now() + make_interval(secs => $2::double precision / 1000),
           start_time = coalesce(r.start_time, now()), attempts = r.attempts + 1
         WHERE r.id = (SELECT id FROM playbook_runs WHERE ${due} LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING r.id, r.playbook_id, r.spec, r.parameters, r.component_id, r.config_id, r.check_id, r.created_by,
           r.trigger_source, r.start_time, r.created_at, r.attempts, r.request`,
        [this.opts.processId, this.leaseMs],
      );
      if (rows[0]) return rows[0];
    }
    return undefined;
  }

  /** Renews the lease; false when the run is no longer ours (cancelled, or taken over). */
  private async renew(runId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `UPDATE playbook_runs SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND claimed_by = $2 AND status = 'running' RETURNING id`,
      [runId, this.opts.processId, this.leaseMs],
    );
    return rows.length > 0;
  }

  private async finish(runId: string, status: 'completed' | 'failed', error: string | null): Promise<void> {
    await this.db.query(
      `UPDATE playbook_runs SET status = $3, error = $4, end_time = now(), lease_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND status = 'running'`,
      [runId, this.opts.processId, status, error],
    );
  }

  private async execute(run: RunRow): Promise<void> {
    const parsed = playbookSpecSchema.safeParse(run.spec);
    if (!parsed.success) {
      await this.finish(run.id, 'failed', `the playbook spec is not valid: ${parsed.error.issues[0]?.message}`);
      return;
    }
    const spec = parsed.data;
    await runJob(this.db, { name: 'PlaybookRun', resourceType: 'playbook_run', resourceId: run.id }, async (job) => {
      const outcome = await this.runActions(run, spec);
      job.details.summary = outcome.summary;
      if (outcome.error) job.error(outcome.error);
      else job.success(outcome.summary.completed);
    });
  }

  private async runActions(
    run: RunRow,
    spec: PlaybookSpec,
  ): Promise<{ error?: string; summary: Record<string, number> }> {
    const summary = { completed: 0, failed: 0, skipped: 0 };
    const ctx: RunContext = {
      params: run.parameters ?? {},
      run: {
        id: run.id,
        playbook_id: run.playbook_id,
        trigger_source: run.trigger_source,
        created_by: run.created_by,
        request: run.request,
      },
      console: { url: this.opts.publicUrl.replace(/\/+$/, '') },
      actions: {},
    };
    for (const kind of ['config', 'component', 'check'] as ResourceKind[]) {
      const id = run[`${kind}_id`];
      if (id) ctx[kind] = await loadResource(this.db, kind, id);
    }

    // Resumed after a crash: finished actions stand; one left running is not repeated.
    const existing = (
      await this.db.query<ActionRow>(
        `SELECT id, name, status, result, error, runs_on FROM playbook_run_actions WHERE playbook_run_id = $1`,
        [run.id],
      )
    ).rows;
    // An action handed to an agent is not in flight here: the agent runs it; wait on for it.
    const onAgent = new Map<string, string>();
    for (const a of existing) {
      if (!FINAL_ACTION.has(a.status) && a.runs_on) onAgent.set(a.name, a.id);
      else if (!FINAL_ACTION.has(a.status)) {
        a.status = 'failed';
        a.error =
          'interrupted: the server running this action stopped before it finished; it is not run again, since its effect may already have happened';
        await this.db.query(
          `UPDATE playbook_run_actions SET status = 'failed', error = $2, end_time = now() WHERE id = $1`,
          [a.id, a.error],
        );
      }
    }
    const done = new Map(existing.filter((a) => !onAgent.has(a.name)).map((a) => [a.name, a]));

    // The run's signal: its time limit, a cancel or a lost claim (seen when renewing), a stop.
    const run$ = new AbortController();
    const timeoutMs = spec.timeout ? parsePlaybookDuration(spec.timeout) : DEFAULT_RUN_TIMEOUT_MS;
    const left = new Date(run.start_time).getTime() + timeoutMs - Date.now();
    const timer = setTimeout(
      () => run$.abort(new Error(`the run timed out after ${spec.timeout ?? '30m'}`)),
      Math.max(left, 0),
    );
    const onStop = () => run$.abort(this.stopping.signal.reason);
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    const heartbeat = setInterval(
      () =>
        void this.renew(run.id)
          .then(async (ours) => {
            if (ours) return;
            const { rows } = await this.db.query<{ status: string }>(`SELECT status FROM playbook_runs WHERE id = $1`, [
              run.id,
            ]);
            run$.abort(new Error(rows[0]?.status === 'cancelled' ? 'the run was cancelled' : 'the run was taken over'));
          })
          .catch((err) => this.log.warn({ err, run: run.id }, 'playbook run: lease renewal failed')),
      // also how soon a cancel is seen: at most 2 s
      Math.max(Math.min(this.leaseMs / 3, 2000), 100),
    );

    let firstError: string | undefined;
    try {
      for (const action of spec.actions) {
        const prior = done.get(action.name);
        if (prior) {
          ctx.actions[action.name] = { status: prior.status, result: prior.result, error: prior.error };
          if (prior.status === 'failed') firstError ??= `action "${action.name}" failed: ${prior.error}`;
          continue;
        }
        if (run$.signal.aborted) break;
        const waiting = onAgent.get(action.name);
        const outcome = waiting
          ? await this.awaitAgent(waiting, run$.signal)
          : await this.runOne(run, spec, action, ctx, run$.signal);
        if (outcome !== 'lost' && outcome.status === 'waiting') break; // stopping: the agent's action waits on
        if (outcome === 'lost') return { error: 'the run was taken over by another process', summary };
        ctx.actions[action.name] = outcome;
        if (outcome.status === 'completed') summary.completed++;
        if (outcome.status === 'skipped') summary.skipped++;
        if (outcome.status === 'failed') {
          summary.failed++;
          firstError ??= `action "${action.name}" failed: ${outcome.error}`;
        }
      }
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
      this.stopping.signal.removeEventListener('abort', onStop);
    }
    if (this.stopping.signal.aborted) {
      // Hand the run back: another process (or this one, restarted) goes on from here.
      await this.db.query(
        `UPDATE playbook_runs SET status = 'pending', claimed_by = NULL, lease_until = NULL
         WHERE id = $1 AND claimed_by = $2 AND status = 'running'`,
        [run.id, this.opts.processId],
      );
      return { error: 'the server stopped; the run goes on elsewhere', summary };
    }
    if (run$.signal.aborted && !firstError) firstError = abortMessage(run$.signal);
    await this.finish(run.id, firstError ? 'failed' : 'completed', firstError ?? null);
    return { error: firstError, summary };
  }

  /** Runs one action; 'lost' when the run is no longer this process's. */
  private async runOne(
    run: RunRow,
    spec: PlaybookSpec,
    action: PlaybookAction,
    ctx: RunContext,
    signal: AbortSignal,
  ): Promise<Outcome | 'lost'> {
    let run_it: boolean;
    let ifError: string | undefined;
    try {
      run_it = shouldRun(action, ctx);
    } catch (err) {
      run_it = false;
      ifError = (err as Error).message;
    }
    const runsOn = action.runsOn ?? spec.runsOn ?? [];
    const status = ifError
      ? 'failed'
      : run_it
        ? action.delay
          ? 'sleeping'
          : runsOn.length
            ? 'waiting'
            : 'running'
        : 'skipped';
    // Written before the effect, and only while this process holds the run.
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO playbook_run_actions (playbook_run_id, name, status, start_time, end_time, error)
       SELECT $1, $2, $3, now(), CASE WHEN $3 IN ('skipped', 'failed') THEN now() END, $5
       WHERE EXISTS (SELECT 1 FROM playbook_runs WHERE id = $1 AND claimed_by = $4 AND status = 'running')
       ON CONFLICT (playbook_run_id, name) DO NOTHING RETURNING id`,
      [run.id, action.name, status, this.opts.processId, ifError ?? null],
    );
    const id = rows[0]?.id;
    if (!id) return 'lost';
    if (status !== 'running' && status !== 'sleeping' && status !== 'waiting')
      return { status, result: null, error: ifError ?? null };

    const set = (fields: string, params: unknown[]) =>
      this.db.query(`UPDATE playbook_run_actions SET ${fields} WHERE id = $1`, [id, ...params]);

    if (action.delay) {
      await sleep(parsePlaybookDuration(action.delay), signal);
      if (!signal.aborted && !runsOn.length) await set(`status = 'running', start_time = now()`, []);
    }
    if (runsOn.length) return this.handToAgent(id, action, runsOn, ctx, signal);
    const timeoutMs = action.timeout ? parsePlaybookDuration(action.timeout) : DEFAULT_RUN_TIMEOUT_MS;
    const retries = action.retry?.limit ?? 0;
    let wait = action.retry ? parsePlaybookDuration(action.retry.duration) : 0;
    let last: { result: ActionResult | null; error: string } = { result: null, error: 'not run' };
    for (let attempt = 0; attempt <= retries && !signal.aborted; attempt++) {
      if (attempt > 0) {
        await set(`status = 'sleeping', retry_count = $2`, [attempt]);
        await sleep(wait, signal);
        wait = Math.round(wait * (action.retry?.multiplier ?? 2));
        if (signal.aborted) break;
        await set(`status = 'running'`, []);
      }
      const own = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      try {
        // an action taken from an upstream came rendered there: its values are not templates
        const rendered = run.trigger_source === HANDED_TRIGGER ? action : renderAction(action, ctx);
        const result = await runAction(rendered, this.deps, { signal: own, timeoutMs, key: id });
        await set(`status = 'completed', result = $2::jsonb, error = NULL, end_time = now()`, [JSON.stringify(result)]);
        return { status: 'completed', result, error: null };
      } catch (err) {
        const message =
          own.aborted && !signal.aborted
            ? `the action timed out after ${action.timeout ?? '30m'}`
            : err instanceof ActionError
              ? err.message
              : (err as Error).message;
        last = { result: err instanceof ActionError ? (err.result ?? null) : null, error: message };
      }
    }
    if (signal.aborted && last.error === 'not run') last.error = abortMessage(signal);
    const cancelled = signal.aborted && abortMessage(signal) === 'the run was cancelled';
    await set(`status = $2, result = $3::jsonb, error = $4, end_time = now()`, [
      cancelled ? 'cancelled' : 'failed',
      last.result ? JSON.stringify(last.result) : null,
      last.error,
    ]);
    return { status: cancelled ? 'cancelled' : 'failed', ...last };
  }

  /**
   * An action for an agent (runsOn): rendered here, stored `waiting` with the agents that may
   * take it, and waited for. Its time budget is what the agent may spend on it: the action's
   * timeout per attempt plus the retries' waits.
   */
  private async handToAgent(
    id: string,
    action: PlaybookAction,
    names: string[],
    ctx: RunContext,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const fail = async (error: string): Promise<Outcome> => {
      await this.db.query(
        `UPDATE playbook_run_actions SET status = 'failed', error = $2, end_time = now() WHERE id = $1`,
        [id, error],
      );
      return { status: 'failed', result: null, error };
    };
    if (signal.aborted) return fail(abortMessage(signal));
    const agents = await agentsNamed(this.db, names);
    if (!agents.length) return fail(`runsOn: no agent named ${names.map((n) => `"${n}"`).join(', ')}`);
    const perAttempt = action.timeout ? parsePlaybookDuration(action.timeout) : DEFAULT_RUN_TIMEOUT_MS;
    let waits = 0;
    let wait = action.retry ? parsePlaybookDuration(action.retry.duration) : 0;
    for (let i = 0; i < (action.retry?.limit ?? 0); i++) {
      waits += wait;
      wait = Math.round(wait * (action.retry?.multiplier ?? 2));
    }
    const timeoutMs = perAttempt * ((action.retry?.limit ?? 0) + 1) + waits;
    const { if: _if, delay: _delay, runsOn: _runsOn, ...handed } = renderAction(action, ctx);
    await this.db.query(
      `UPDATE playbook_run_actions SET status = 'waiting', runs_on = $2::uuid[], spec = $3::jsonb, scheduled_time = now()
        WHERE id = $1`,
      [id, agents.map((a) => a.id), JSON.stringify({ ...handed, timeoutMs })],
    );
    return this.awaitAgent(id, signal);
  }

  /**
   * Waits for an agent's result of action `id`, checking every second. Fails it when no agent
   * took it within its budget, when the agent that took it went silent (or was deleted), or when
   * its result does not arrive within the budget and a grace; marks it cancelled with the run.
   * A stop leaves it as it is (status 'waiting' answered): the agent may be running it, and the
   * process that resumes the run waits on.
   */
  private async awaitAgent(id: string, signal: AbortSignal): Promise<Outcome> {
    const end = async (status: 'failed' | 'cancelled', error: string): Promise<Outcome | undefined> => {
      const { rows } = await this.db.query(
        `UPDATE playbook_run_actions SET status = $2, error = $3, end_time = now()
          WHERE id = $1 AND status IN ('waiting', 'running') RETURNING id`,
        [id, status, error],
      );
      return rows.length ? { status, result: null, error } : undefined; // else: the result just came
    };
    for (;;) {
      const { rows } = await this.db.query<{
        status: string;
        result: ActionResult | null;
        error: string | null;
        claimed: boolean;
        unclaimed_late: boolean;
        report_late: boolean;
        silent: boolean;
        agent: string | null;
        agent_deleted: boolean;
        names: string | null;
        budget: string;
      }>(
        `SELECT a.status, a.result, a.error, a.claimed_at IS NOT NULL AS claimed,
                a.claimed_at IS NULL AND a.scheduled_time + b.budget < now() AS unclaimed_late,
                a.claimed_at + b.budget + make_interval(secs => $2::double precision / 1000) < now() AS report_late,
                coalesce(g.last_seen < now() - make_interval(secs => $3::double precision / 1000), false) AS silent,
                g.name AS agent, g.deleted_at IS NOT NULL AS agent_deleted,
                (SELECT string_agg('"' || n.name || '"', ', ' ORDER BY n.name) FROM agents n WHERE n.id = ANY (a.runs_on)) AS names,
                (a.spec->>'timeoutMs') AS budget
           FROM playbook_run_actions a
           CROSS JOIN LATERAL (SELECT make_interval(secs => coalesce((a.spec->>'timeoutMs')::double precision, 0) / 1000) AS budget) b
           LEFT JOIN agents g ON g.id = a.agent_id
          WHERE a.id = $1`,
        [id, AGENT_REPORT_GRACE_MS, AGENT_SILENCE_MS],
      );
      const a = rows[0];
      if (!a) return { status: 'failed', result: null, error: 'the action is gone' };
      if (FINAL_ACTION.has(a.status)) return { status: a.status, result: a.result, error: a.error };
      const budget = `${Math.round(Number(a.budget) / 1000)}s`;
      let reason: string | undefined;
      if (signal.aborted) {
        if (this.stopping.signal.aborted) return { status: 'waiting', result: null, error: null };
        const message = abortMessage(signal);
        const cancelled = message === 'the run was cancelled';
        const out = await end(cancelled ? 'cancelled' : 'failed', message);
        if (out) return out;
        continue;
      }
      if (!a.claimed && a.unclaimed_late)
        reason = `no agent of runsOn (${a.names ?? 'none left'}) took this action within ${budget}: is one of them running?`;
      else if (a.claimed && a.agent_deleted) reason = `the agent "${a.agent}" that took this action was deleted`;
      else if (a.claimed && a.silent)
        reason = `the agent "${a.agent}" took this action and then went silent (nothing heard from it for ${AGENT_SILENCE_MS / 1000}s); it is not run again, since its effect may already have happened`;
      else if (a.claimed && a.report_late)
        reason = `the agent "${a.agent}" took this action but reported no result within ${budget} and ${AGENT_REPORT_GRACE_MS / 1000}s more`;
      if (reason) {
        const out = await end('failed', reason);
        if (out) return out;
        continue;
      }
      await sleep(1000, signal);
    }
  }
}
