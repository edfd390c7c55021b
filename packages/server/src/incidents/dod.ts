import { AUTOMATIC_DOD_TYPES, DOD_DEFAULT_SCRIPTS, DOD_EVENTS, type AutomaticDodType } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import { publish } from '../jobs/index.ts';
import { CelLimitError, celDuration, celTimestamp, compile, costProblem, evaluate } from '../cel/index.ts';

/**
 * The automatic definition of done (seed 001 section 4): every evidence with definition_of_done
 * whose type is not comment (core AUTOMATIC_DOD_TYPES), of an incident that is not closed, is
 * evaluated (every minute by the scheduler, recorded in job history as IncidentDefinitionOfDone;
 * at once for the evidences of a check or component that just changed status; and at once for an
 * evidence whose definition of done was just added or changed, 0201). Its `script` is a CEL
 * expression over
 *
 *   now       timestamp
 *   evidence  the evidence row        incident  the incident row
 *   check     the check (evidence type check)
 *   component the component (topology; log: the component the lines were read from)
 *   config    the config item (config; config_analysis and config_change: the config they are of)
 *   analysis  the insight (config_analysis)     change  the config change (config_change)
 *
 * where every timestamp column is a CEL timestamp and each resource has `age`, a duration since its
 * last status change (checks and components: last_transition_time; configs and insights:
 * updated_at; a change: when it was last seen). Without a script the type's default applies (core
 * DOD_DEFAULT_SCRIPTS). When the
 * verdict differs from `done`, done is updated and incident.dod.passed / incident.dod.regressed is
 * published in the same transaction. A script that fails to evaluate leaves `done` as it is and is
 * reported in the job's details.
 */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)$/;

export interface DodRow {
  id: string;
  type: AutomaticDodType;
  done: boolean;
  script: string | null;
  hypothesis_id: string;
  incident_id: string;
  evidence: Record<string, unknown>;
  incident: Record<string, unknown>;
  check_row: Record<string, unknown> | null;
  component: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
  analysis: Record<string, unknown> | null;
  change: Record<string, unknown> | null;
}

/** Top-level timestamp columns become CEL timestamps; `age` is added from `since`. */
function resource(
  row: Record<string, unknown> | null,
  now: Date,
  since: string[],
): Record<string, unknown> | undefined {
  if (!row) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'string' && ISO.test(v) ? celTimestamp(v) : v;
  const from = since.map((k) => row[k]).find((v): v is string => typeof v === 'string' && ISO.test(v));
  if (from) out.age = celDuration(Math.max(0, now.getTime() - Date.parse(from)));
  return out;
}

function dodVariables(row: DodRow, now: Date): Record<string, unknown> {
  const vars: Record<string, unknown> = {
    now: celTimestamp(now),
    evidence: resource(row.evidence, now, ['updated_at', 'created_at']),
    incident: resource(row.incident, now, ['updated_at', 'created_at']),
  };
  const check = resource(row.check_row, now, ['last_transition_time', 'created_at']);
  const component = resource(row.component, now, ['last_transition_time', 'created_at']);
  const config = resource(row.config, now, ['updated_at', 'created_at']);
  const analysis = resource(row.analysis, now, ['updated_at', 'first_observed', 'created_at']);
  const change = resource(row.change, now, ['created_at', 'first_observed']);
  if (check) vars.check = check;
  if (component) vars.component = component;
  if (config) vars.config = config;
  if (analysis) vars.analysis = analysis;
  if (change) vars.change = change;
  return vars;
}

function dodScript(row: Pick<DodRow, 'type' | 'script'>): string {
  return row.script?.trim() || DOD_DEFAULT_SCRIPTS[row.type];
}

/** The resource each type is judged by, and how it is named when it is gone. */
const JUDGED_BY: Record<AutomaticDodType, [keyof DodRow, string]> = {
  check: ['check_row', 'check'],
  topology: ['component', 'component'],
  config: ['config', 'config'],
  config_analysis: ['analysis', 'insight'],
  config_change: ['change', 'config change'],
  log: ['component', 'component'],
};

/** The verdict of one evidence, or why there is none. */
export function evaluateDod(row: DodRow, now: Date): { done: boolean } | { error: string } {
  const [column, noun] = JUDGED_BY[row.type];
  if (!row[column]) {
    if (row.type === 'log' && !row.evidence?.component_id)
      return { error: 'this log evidence names no component to follow; mark it done by hand' };
    return { error: `the ${noun} of this evidence no longer exists` };
  }
  try {
    const result = evaluate(dodScript(row), dodVariables(row, now));
    if (typeof result !== 'boolean')
      return { error: `the script returned ${JSON.stringify(result)}, not true or false` };
    return { done: result };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

// ---- validation at write time -----------------------------------------------------------------------

const SAMPLE_ROW: DodRow = (() => {
  const at = '2026-01-01T00:00:00Z';
  const base = { id: '00000000-0000-0000-0000-000000000000', name: 'sample', created_at: at, updated_at: at };
  return {
    id: base.id,
    type: 'check',
    done: false,
    script: null,
    hypothesis_id: base.id,
    incident_id: base.id,
    evidence: { ...base, type: 'check', definition_of_done: true, done: false },
    incident: { ...base, title: 'sample', status: 'open', severity: 'low', type: 'availability' },
    check_row: { ...base, status: 'healthy', type: 'http', labels: {}, last_transition_time: at },
    component: { ...base, status: 'healthy', type: 'Service', labels: {}, last_transition_time: at },
    config: { ...base, health: 'healthy', status: 'Running', type: 'Kubernetes::Pod', labels: {}, tags: {} },
    analysis: { ...base, status: 'open', severity: 'low', analysis_type: 'security', first_observed: at },
    change: { ...base, change_type: 'diff', severity: 'info', source: 'sample', summary: 'sample', first_observed: at },
  };
})();

/**
 * What is wrong with a script, if anything. `invalid`: it must parse, call only functions CEL
 * knows, and give true or false (judged on a sample of every variable; a field the sample lacks is
 * fine). `costly`: it could take more than the CEL limits (cel/index.ts CEL_LIMITS), estimated
 * from its text or seen on the sample; such a script would only ever fail, every minute.
 */
export function judgeDodScript(script: string): { invalid?: string; costly?: string } {
  try {
    compile(script);
  } catch (err) {
    return { invalid: (err as Error).message.replace(/^invalid CEL expression "[\s\S]*?": /, '') };
  }
  const costly = costProblem(script);
  if (costly) return { costly };
  try {
    const result = evaluate(script, dodVariables(SAMPLE_ROW, new Date('2026-01-01T01:00:00Z')));
    if (typeof result !== 'boolean')
      return { invalid: `it gives ${JSON.stringify(result)}; a definition of done is true or false` };
  } catch (err) {
    const message = (err as Error).message;
    if (err instanceof CelLimitError) return { costly: message.replace(/^CEL expression "[\s\S]*?" stopped: /, '') };
    if (/unbound function|no such overload|no matching overload|unsupported/i.test(message))
      return { invalid: message.replace(/^CEL expression "[\s\S]*?" failed: /, '') };
  }
  return {};
}

/** Why a script cannot be used, or undefined (judgeDodScript, either reason). */
export function dodScriptProblem(script: string): string | undefined {
  const { invalid, costly } = judgeDodScript(script);
  return invalid ?? costly;
}

// ---- evaluation -------------------------------------------------------------------------------------

export interface DodRunResult {
  evaluated: number;
  passed: string[];
  regressed: string[];
  errors: Record<string, string>;
}

const PAGE = 500;

/**
 * Evaluates the automatic definitions of done (all, or those of one check / component) and
 * applies the flips. `q` is the caller's transaction, or the database: then each flip commits on
 * its own (update and event together).
 */
export async function evaluateDefinitionsOfDone(
  q: Queryable & { transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> },
  opts: { resourceId?: string; evidenceId?: string; now?: Date } = {},
): Promise<DodRunResult> {
  const out: DodRunResult = { evaluated: 0, passed: [], regressed: [], errors: {} };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await q.query<DodRow>(
      `SELECT e.id, e.type, e.done, e.script, e.hypothesis_id, h.incident_id,
         to_jsonb(e) AS evidence, to_jsonb(i) AS incident,
         (SELECT to_jsonb(x) FROM checks x WHERE x.id = e.check_id AND x.deleted_at IS NULL) AS check_row,
         (SELECT to_jsonb(x) FROM components x WHERE x.id = e.component_id AND x.deleted_at IS NULL) AS component,
         -- the evidence's config, else the one its change or insight is of (the web names only those)
         (SELECT to_jsonb(x) FROM config_items x WHERE x.deleted_at IS NULL AND x.id = coalesce(e.config_id,
            (SELECT c.config_id FROM config_changes c WHERE c.id = e.config_change_id),
            (SELECT a.config_id FROM config_analysis a WHERE a.id = e.config_analysis_id))) AS config,
         (SELECT to_jsonb(x) FROM config_analysis x WHERE x.id = e.config_analysis_id) AS analysis,
         (SELECT to_jsonb(x) - 'patches' - 'diff' FROM config_changes x WHERE x.id = e.config_change_id) AS change
       FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id
       WHERE e.definition_of_done AND e.type = ANY($1::text[]) AND i.status <> 'closed' AND e.id > $2::uuid
         AND ($3::uuid IS NULL OR e.check_id = $3::uuid OR e.component_id = $3::uuid)
         AND ($5::uuid IS NULL OR e.id = $5::uuid)
       ORDER BY e.id LIMIT $4`,
      [AUTOMATIC_DOD_TYPES, after, opts.resourceId ?? null, PAGE, opts.evidenceId ?? null],
    );
    const now = opts.now ?? new Date();
    for (const row of rows) {
      out.evaluated++;
      // Each evaluation is bounded by CEL_LIMITS (about 100 ms at most); between two, requests
      // waiting on the event loop go first, so a page of costly scripts never stalls the API.
      await new Promise((resolve) => setImmediate(resolve));
      const verdict = evaluateDod(row, now);
      if ('error' in verdict) {
        out.errors[row.id] = verdict.error;
        continue;
      }
      if (verdict.done === row.done) continue;
      const apply = async (tx: Queryable) => {
        const r = await tx.query(
          `UPDATE evidences SET done = $2 WHERE id = $1 AND definition_of_done AND done IS DISTINCT FROM $2`,
          [row.id, verdict.done],
        );
        if (r.rowCount !== 1) return false;
        await publish(
          tx,
          verdict.done ? DOD_EVENTS.passed : DOD_EVENTS.regressed,
          `${row.id}/${new Date().toISOString()}/${verdict.done}`,
          {
            evidence_id: row.id,
            hypothesis_id: row.hypothesis_id,
            incident_id: row.incident_id,
            type: row.type,
            script: dodScript(row),
            done: verdict.done,
          },
        );
        return true;
      };
      const flipped = q.transaction ? await q.transaction(apply) : await apply(q);
      if (flipped) (verdict.done ? out.passed : out.regressed).push(row.id);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  return out;
}
