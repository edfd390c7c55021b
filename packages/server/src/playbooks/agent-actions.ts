/**
 * Playbook actions that run on an agent (spec `runsOn`, README.md "Actions on agents").
 *
 * Upstream: the runner writes such an action `waiting`, with the agents that may take it
 * (runs_on) and its rendered fields (spec). An agent's long-poll claims the oldest one naming it
 * in one statement (FOR UPDATE SKIP LOCKED: one agent, once), and its push reports the result,
 * which only the agent that claimed it can write, and only while the action is still running.
 *
 * Agent: a taken action becomes a local run with the action's id (trigger_source 'upstream'),
 * which the local runner runs like any other (sandbox, timeout, retry; never twice); its outcome
 * is read back from that run for the report.
 */
import type { PlaybookAction, PlaybookActionReport, PlaybookHandedAction } from '@watchdeck/core';
import type { Queryable } from '#server/db/index.ts';

/** The trigger_source of a local run that runs an action taken from an upstream. */
export const HANDED_TRIGGER = 'upstream';

/** The live agents with these names (ids and names), for the action's runs_on. */
export async function agentsNamed(db: Queryable, names: string[]): Promise<{ id: string; name: string }[]> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT id::text, name FROM agents WHERE name = ANY($1::text[]) AND deleted_at IS NULL ORDER BY name`,
    [names],
  );
  return rows;
}

/**
 * The oldest waiting action that names this agent, claimed for it (status running, agent_id,
 * claimed_at) and committed at once; the run is counted as the agent's. Undefined: none waits.
 */
export async function claimAgentAction(db: Queryable, agentId: string): Promise<PlaybookHandedAction | undefined> {
  const { rows } = await db.query<{
    id: string;
    run_id: string;
    playbook_id: string;
    playbook_name: string;
    name: string;
    spec: PlaybookAction & { timeoutMs: number };
  }>(
    `WITH claimed AS (
       UPDATE playbook_run_actions a SET status = 'running', agent_id = $1, claimed_at = now(), start_time = now()
        WHERE a.id = (SELECT x.id FROM playbook_run_actions x JOIN playbook_runs r ON r.id = x.playbook_run_id
                       WHERE x.status = 'waiting' AND $1 = ANY (x.runs_on) AND r.status = 'running'
                       ORDER BY x.scheduled_time LIMIT 1 FOR UPDATE OF x SKIP LOCKED)
        RETURNING a.id, a.playbook_run_id, a.name, a.spec
     ), run AS (
       UPDATE playbook_runs r SET agent_id = coalesce(r.agent_id, $1) FROM claimed c WHERE r.id = c.playbook_run_id
       RETURNING r.id, r.playbook_id
     )
     SELECT c.id::text, c.playbook_run_id::text AS run_id, p.id::text AS playbook_id, p.name AS playbook_name, c.name,
            c.spec
       FROM claimed c JOIN run ON run.id = c.playbook_run_id JOIN playbooks p ON p.id = run.playbook_id`,
    [agentId],
  );
  const r = rows[0];
  if (!r) return undefined;
  const { timeoutMs, ...action } = r.spec;
  return {
    id: r.id,
    run_id: r.run_id,
    playbook_id: r.playbook_id,
    playbook_name: r.playbook_name,
    name: r.name,
    action,
    timeoutMs,
  };
}

/**
 * Stores an agent's results of actions it claimed. An action it claimed and that still runs takes
 * the result; one already final (a resent push, or failed meanwhile because the agent went
 * silent or the run was cancelled) keeps what it has. An action it never claimed is refused
 * (403), an unknown one too (400): the whole push is rolled back by the caller.
 */
export async function reportAgentActions(
  tx: Queryable,
  agentId: string,
  reports: PlaybookActionReport[],
): Promise<{ applied: number; refused?: { status: 400 | 403; message: string } }> {
  if (!reports.length) return { applied: 0 };
  const ids = reports.map((r) => r.id);
  const { rows } = await tx.query<{ id: string; agent_id: string | null }>(
    `SELECT id::text, agent_id::text FROM playbook_run_actions WHERE id = ANY($1::uuid[]) AND claimed_at IS NOT NULL`,
    [ids],
  );
  const known = new Map(rows.map((r) => [r.id, r.agent_id]));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown)
    return { applied: 0, refused: { status: 400, message: `playbook_run_actions: ${unknown} was not handed out` } };
  if (rows.some((r) => r.agent_id !== agentId))
    return {
      applied: 0,
      refused: { status: 403, message: 'playbook_run_actions: an action taken by another agent cannot be reported' },
    };
  const { rows: applied } = await tx.query(
    `UPDATE playbook_run_actions a SET status = x.status, result = x.result, error = x.error,
            start_time = coalesce(x.start_time, a.start_time), end_time = coalesce(x.end_time, now())
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, status text, result jsonb, error text,
            start_time timestamptz, end_time timestamptz)
      WHERE a.id = x.id AND a.agent_id = $2 AND a.status = 'running'
      RETURNING a.id`,
    [JSON.stringify(reports), agentId],
  );
  return { applied: applied.length };
}

/**
 * Agent side: the taken action as a local run with its id, on a holder playbook with the
 * upstream playbook's id (created once; it has no triggers, so nothing else runs it). The
 * action's fields are already rendered; the run's time limit is the upstream's wait.
 * Idempotent: taking the same action again adds nothing.
 */
export async function runHandedAction(tx: Queryable, handed: PlaybookHandedAction): Promise<void> {
  await tx.query(
    `INSERT INTO playbooks (id, name, namespace, title, source, spec) VALUES ($1, $2, 'upstream', $3, 'upstream', '{}')
     ON CONFLICT (id) DO NOTHING`,
    [handed.playbook_id, handed.playbook_id, handed.playbook_name],
  );
  const spec = {
    actions: [{ ...handed.action, name: handed.name }],
    timeout: `${Math.ceil(handed.timeoutMs / 1000)}s`,
  };
  await tx.query(
    `INSERT INTO playbook_runs (id, playbook_id, status, spec, trigger_source, timeout)
     VALUES ($1, $2, 'pending', $3::jsonb, $4, make_interval(secs => $5::double precision / 1000))
     ON CONFLICT (id) DO NOTHING`,
    [handed.id, handed.playbook_id, JSON.stringify(spec), HANDED_TRIGGER, handed.timeoutMs],
  );
}

/** Agent side: the reports of these taken actions whose local run has ended. */
export async function handedActionReports(db: Queryable, ids: string[]): Promise<PlaybookActionReport[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<{
    id: string;
    run_status: string;
    run_error: string | null;
    status: string | null;
    result: Record<string, unknown> | null;
    error: string | null;
    start_time: Date | null;
    end_time: Date | null;
  }>(
    `SELECT r.id::text, r.status AS run_status, r.error AS run_error, a.status, a.result, a.error,
            coalesce(a.start_time, r.start_time) AS start_time, coalesce(a.end_time, r.end_time) AS end_time
       FROM playbook_runs r LEFT JOIN playbook_run_actions a ON a.playbook_run_id = r.id
      WHERE r.id = ANY($1::uuid[]) AND r.status IN ('completed', 'failed', 'cancelled')`,
    [ids],
  );
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((r) => ({
    id: r.id,
    status: r.status === 'completed' ? 'completed' : 'failed',
    result: r.result,
    error: r.status === 'completed' ? null : (r.error ?? r.run_error ?? `the run on the agent ended ${r.run_status}`),
    start_time: iso(r.start_time),
    end_time: iso(r.end_time),
  }));
}
