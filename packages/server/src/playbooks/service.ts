/**
 * What the routes and triggers do with playbooks: queue a run (checked against the spec: the
 * resource it is offered on, its parameters), approve, cancel, re-run, and the parameters a
 * resource gives the run dialog.
 */
import {
  PLAYBOOK_RUN_FINAL,
  playbookParameterProblem,
  playbookSpecSchema,
  renderTemplate,
  type PlaybookSpec,
} from '@watchdeck/core';
import type { Queryable } from '#server/db/index.ts';
import { kindsOf, loadResource, offers, type PlaybookResource, type ResourceKind } from './resources.ts';

/** A refusal with its HTTP status; the message names the field (routes answer it as is). */
export class PlaybookError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export interface PlaybookRow {
  id: string;
  name: string;
  title: string;
  source: string;
  spec: unknown;
  deleted_at: Date | null;
}

export async function loadPlaybook(q: Queryable, id: string): Promise<PlaybookRow & { parsed: PlaybookSpec }> {
  const { rows } = await q.query<PlaybookRow>(
    `SELECT id, name, title, source, spec, deleted_at FROM playbooks WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new PlaybookError(404, `playbook ${id} not found`);
  const parsed = playbookSpecSchema.safeParse(row.spec);
  if (!parsed.success)
    throw new PlaybookError(
      409,
      `playbook "${row.name}" has a spec that is not valid (${parsed.error.issues[0]?.message}); fix it before running it`,
    );
  return { ...row, parsed: parsed.data };
}

export interface ResourceIds {
  config_id?: string | null;
  component_id?: string | null;
  check_id?: string | null;
}

/** The one resource of a request, loaded; an error when several are given or it does not exist. */
export async function resourceOf(q: Queryable, ids: ResourceIds): Promise<PlaybookResource | undefined> {
  const given = (['config', 'component', 'check'] as ResourceKind[]).filter((k) => ids[`${k}_id`]);
  if (given.length > 1) throw new PlaybookError(400, 'give one of config_id, component_id or check_id, not several');
  const kind = given[0];
  if (!kind) return undefined;
  const r = await loadResource(q, kind, ids[`${kind}_id`]!);
  if (!r) throw new PlaybookError(404, `${kind}_id: ${kind} ${ids[`${kind}_id`]} not found`);
  return r;
}

/** The parameters' defaults for this resource (templates rendered) as the run dialog shows them. */
export function defaultParams(spec: PlaybookSpec, resource: PlaybookResource | undefined): Record<string, string> {
  const ctx: Record<string, unknown> = resource ? { [resource.kind]: resource, resource } : {};
  const out: Record<string, string> = {};
  for (const p of spec.parameters ?? []) {
    if (p.default === undefined) continue;
    out[p.name] = typeof p.default === 'string' ? renderTemplate(p.default, ctx) : String(p.default);
  }
  return out;
}

function checkResource(spec: PlaybookSpec, name: string, resource: PlaybookResource | undefined) {
  const kinds = kindsOf(spec);
  if (!kinds.length) return;
  if (!resource)
    throw new PlaybookError(
      400,
      `playbook "${name}" runs on a resource: give ${kinds.map((k) => `${k}_id`).join(' or ')}`,
    );
  if (!offers(spec, resource))
    throw new PlaybookError(400, `playbook "${name}" is not offered on ${resource.kind} "${resource.name}"`);
}

/** The run's parameters: defaults, then the request's; every value checked (seed 000 section 5). */
function runParams(
  spec: PlaybookSpec,
  resource: PlaybookResource | undefined,
  given: Record<string, unknown> = {},
): Record<string, string> {
  const known = new Map((spec.parameters ?? []).map((p) => [p.name, p]));
  const errors: Record<string, string> = {};
  for (const k of Object.keys(given))
    if (!known.has(k)) errors[`params.${k}`] = `params.${k} is not a parameter of this playbook`;
  const values: Record<string, string> = defaultParams(spec, resource);
  for (const [k, v] of Object.entries(given)) if (v !== null && v !== undefined) values[k] = String(v);
  for (const p of known.values()) {
    const problem = playbookParameterProblem(p, values[p.name]);
    if (problem) errors[`params.${p.name}`] = problem;
  }
  const first = Object.entries(errors)[0];
  if (first) throw new PlaybookError(400, `${first[0]}: ${first[1]}`, errors);
  return values;
}

export interface QueueRun extends ResourceIds {
  playbookId: string;
  params?: Record<string, unknown>;
  triggerSource: 'manual' | 'schedule' | 'event' | 'webhook' | 'rerun';
  createdBy?: string | null;
  parentId?: string | null;
  request?: unknown;
  /** an event trigger: the resource was matched already (selectors and the trigger's filter) */
  trusted?: boolean;
}

/** Queues a run (pending, or pending_approval when the spec asks for approval); its id. */
export async function queueRun(q: Queryable, r: QueueRun): Promise<string> {
  const pb = await loadPlaybook(q, r.playbookId);
  const resource = await resourceOf(q, r);
  if (!r.trusted) checkResource(pb.parsed, pb.name, resource);
  const params = runParams(pb.parsed, resource, r.params);
  const status = pb.parsed.approval ? 'pending_approval' : 'pending';
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO playbook_runs (playbook_id, parent_id, status, spec, parameters, request, component_id, config_id,
       check_id, trigger_source, created_by, timeout)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12::interval) RETURNING id`,
    [
      pb.id,
      r.parentId ?? null,
      status,
      JSON.stringify(pb.spec),
      JSON.stringify(params),
      r.request === undefined ? null : JSON.stringify(r.request),
      resource?.kind === 'component' ? resource.id : null,
      resource?.kind === 'config' ? resource.id : null,
      resource?.kind === 'check' ? resource.id : null,
      r.triggerSource,
      r.createdBy ?? null,
      pb.parsed.timeout ?? null,
    ],
  );
  return rows[0]!.id;
}

interface RunState {
  id: string;
  playbook_id: string;
  status: string;
  spec: unknown;
  parameters: Record<string, unknown>;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
}

async function loadRun(q: Queryable, id: string, lock = false): Promise<RunState> {
  const { rows } = await q.query<RunState>(
    `SELECT id, playbook_id, status, spec, parameters, component_id, config_id, check_id FROM playbook_runs
     WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!rows[0]) throw new PlaybookError(404, `playbook run ${id} not found`);
  return rows[0];
}

/** Cancels a run that has not finished; its running action is stopped by its runner. */
export async function cancelRun(q: Queryable, id: string): Promise<string> {
  const run = await loadRun(q, id, true);
  if ((PLAYBOOK_RUN_FINAL as readonly string[]).includes(run.status))
    throw new PlaybookError(409, `the run is already ${run.status}`);
  await q.query(`UPDATE playbook_runs SET status = 'cancelled', end_time = now(), lease_until = NULL WHERE id = $1`, [
    id,
  ]);
  await q.query(
    `UPDATE playbook_run_actions SET status = 'cancelled', end_time = now()
     WHERE playbook_run_id = $1 AND status IN ('pending', 'scheduled', 'sleeping', 'waiting')`,
    [id],
  );
  return 'cancelled';
}

/** A new run of the same playbook, resource and parameters (as the spec is now). */
export async function rerun(q: Queryable, id: string, createdBy: string | null): Promise<string> {
  const run = await loadRun(q, id);
  return queueRun(q, {
    playbookId: run.playbook_id,
    config_id: run.config_id,
    component_id: run.component_id,
    check_id: run.check_id,
    params: run.parameters,
    triggerSource: 'rerun',
    createdBy,
    parentId: run.id,
  });
}

/**
 * An approval by `personId` of a run waiting for approval. Only the people the spec names, or
 * members of the teams it names, may approve. `any`: the first approval releases the run; `all`:
 * every named person and one member of every named team.
 */
export async function approveRun(
  q: Queryable,
  id: string,
  personId: string,
): Promise<{ status: string; approved: boolean }> {
  const run = await loadRun(q, id, true);
  if (run.status !== 'pending_approval')
    throw new PlaybookError(409, `the run is ${run.status}, not waiting for approval`);
  const spec = playbookSpecSchema.safeParse(run.spec);
  const approval = spec.success ? spec.data.approval : undefined;
  if (!approval) throw new PlaybookError(409, 'the run needs no approval');
  const people = approval.approvers.people ?? [];
  const teams = approval.approvers.teams ?? [];
  const { rows: me } = await q.query<{ id: string; email: string | null }>(
    `SELECT id, email FROM people WHERE id = $1`,
    [personId],
  );
  const email = me[0]?.email?.toLowerCase() ?? '';
  const namedPerson = people.find((p) => p === personId || p.toLowerCase() === email);
  const { rows: myTeams } = await q.query<{ id: string; name: string }>(
    `SELECT t.id, t.name FROM teams t JOIN team_members m ON m.team_id = t.id
     WHERE m.person_id = $1 AND t.deleted_at IS NULL AND (t.name = ANY($2::text[]) OR t.id::text = ANY($2::text[]))`,
    [personId, teams],
  );
  if (!namedPerson && !myTeams.length)
    throw new PlaybookError(403, 'Forbidden: you are not one of the approvers this playbook names');
  await q.query(
    `INSERT INTO playbook_approvals (run_id, person_id, team_id) VALUES ($1, $2, $3)
     ON CONFLICT (run_id, person_id) DO NOTHING`,
    [id, personId, namedPerson ? null : (myTeams[0]?.id ?? null)],
  );
  let satisfied = approval.type === 'any';
  if (!satisfied) {
    const { rows: given } = await q.query<{ person_id: string; email: string | null; teams: string[] }>(
      `SELECT a.person_id, p.email,
         coalesce((SELECT array_agg(t.name) || array_agg(t.id::text) FROM team_members m JOIN teams t ON t.id = m.team_id
                   WHERE m.person_id = a.person_id), '{}') AS teams
       FROM playbook_approvals a JOIN people p ON p.id = a.person_id WHERE a.run_id = $1`,
      [id],
    );
    satisfied =
      people.every((p) => given.some((g) => g.person_id === p || (g.email ?? '').toLowerCase() === p.toLowerCase())) &&
      teams.every((t) => given.some((g) => g.teams.includes(t)));
  }
  if (satisfied) {
    await q.query(`UPDATE playbook_runs SET status = 'pending', scheduled_time = now() WHERE id = $1`, [id]);
    return { status: 'pending', approved: true };
  }
  return { status: 'pending_approval', approved: false };
}
