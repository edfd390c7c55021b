import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { configuredResponderTypes, renderTemplate, SEVERITIES } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import { incidentRuleSpec } from '../settings/index.ts';

/**
 * Incident rules (settings kind incident_rule, table incident_rules): a check that fails
 * (check.failed) or a component that turns unhealthy (component.status.unhealthy) and matches a
 * rule's filter opens an incident, or joins the rule's open incident as evidence; when it recovers,
 * a rule with autoResolve resolves its incident once every resource it added is healthy again.
 * Runs in the transaction that records the 'incidents' consumer's delivery of that event done
 * (index.ts handleTransition), as the system: request.person_id is cleared, so the changelog's
 * actor is empty (sql/50-incidents.sql).
 */
type RuleSpec = z.infer<typeof incidentRuleSpec>;
export type ResourceKind = 'check' | 'component';

export interface Resource {
  kind: ResourceKind;
  id: string;
  name: string;
  type: string | null;
  namespace: string | null;
  labels: Record<string, string>;
  severity: string | null;
  status: string | null;
  /** the row as JSON, for templates ({{.check.name}}, {{.component.status_reason}}) */
  row: Record<string, unknown>;
}

interface RuleRow {
  id: string;
  name: string;
  priority: number;
  spec: unknown;
}

// ---- matching ---------------------------------------------------------------------------------------

function glob(pattern: string, value: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return re.test(value);
}

/** `patterns` with `*` globs; `!x` excludes. No patterns: anything. */
export function globsMatch(patterns: readonly string[] | undefined, value: string | null | undefined): boolean {
  if (!patterns?.length) return true;
  const v = value ?? '';
  const excludes = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const includes = patterns.filter((p) => !p.startsWith('!'));
  if (excludes.some((p) => glob(p, v))) return false;
  return includes.length === 0 || includes.some((p) => glob(p, v));
}

function ruleMatches(spec: RuleSpec, r: Resource): boolean {
  const f = spec.filter ?? {};
  const kinds = f.kind === undefined ? ['check', 'component'] : [f.kind].flat();
  if (!kinds.includes(r.kind)) return false;
  if (!globsMatch(f.names, r.name)) return false;
  if (!globsMatch(f.types, r.type)) return false;
  if (!globsMatch(f.namespaces, r.namespace)) return false;
  for (const [key, pattern] of Object.entries(f.labels ?? {})) {
    const has = r.labels[key];
    if (
      pattern.startsWith('!')
        ? has !== undefined && glob(pattern.slice(1), has)
        : has === undefined || !glob(pattern, has)
    )
      return false;
  }
  if (f.severities?.length && (r.kind !== 'check' || !f.severities.includes(r.severity as (typeof SEVERITIES)[number])))
    return false;
  return true;
}

// ---- the resource -----------------------------------------------------------------------------------

export async function loadResource(q: Queryable, kind: ResourceKind, id: string): Promise<Resource | undefined> {
  const { rows } = await q.query<{ row: Record<string, unknown> }>(
    kind === 'check'
      ? `SELECT to_jsonb(c) || jsonb_build_object('canary', jsonb_build_object('id', ca.id, 'name', ca.name, 'namespace', ca.namespace)) AS row
         FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE c.id = $1 AND c.deleted_at IS NULL`
      : `SELECT to_jsonb(c) || jsonb_build_object('namespace', t.namespace, 'topology', jsonb_build_object('id', t.id, 'name', t.name)) AS row
         FROM components c LEFT JOIN topologies t ON t.id = c.topology_id WHERE c.id = $1 AND c.deleted_at IS NULL`,
    [id],
  );
  const row = rows[0]?.row;
  if (!row) return undefined;
  const labels = row.labels && typeof row.labels === 'object' ? (row.labels as Record<string, unknown>) : {};
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    kind,
    id,
    name: String(row.name ?? ''),
    type: str(row.type),
    namespace: str(row.namespace),
    labels: Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)])),
    severity: kind === 'check' ? str(row.severity) : null,
    status: str(row.status),
    row,
  };
}

// ---- opening and joining ----------------------------------------------------------------------------

const evidenceType = (kind: ResourceKind) => (kind === 'check' ? 'check' : 'topology');
const idColumn = (kind: ResourceKind) => (kind === 'check' ? 'check_id' : 'component_id');

async function matchingRule(
  q: Queryable,
  r: Resource,
  log: FastifyBaseLogger,
): Promise<{ rule: RuleRow; spec: RuleSpec } | undefined> {
  const { rows } = await q.query<RuleRow>(
    `SELECT id, name, priority, spec FROM incident_rules WHERE deleted_at IS NULL ORDER BY priority DESC, created_at, id LIMIT 1000`,
  );
  for (const rule of rows) {
    const parsed = incidentRuleSpec.safeParse(rule.spec ?? {});
    if (!parsed.success) {
      log.warn(
        { rule: rule.name, issues: parsed.error.issues.slice(0, 3) },
        'incident rule skipped: its spec is not valid',
      );
      continue;
    }
    if (ruleMatches(parsed.data, r)) return { rule, spec: parsed.data };
  }
  return undefined;
}

async function addEvidence(q: Queryable, incidentId: string, r: Resource, ruleId: string): Promise<boolean> {
  const { rows: existing } = await q.query(
    `SELECT 1 FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = $1 AND e.${idColumn(r.kind)} = $2 LIMIT 1`,
    [incidentId, r.id],
  );
  if (existing.length) return false;
  let { rows: hyp } = await q.query<{ id: string }>(
    `SELECT id FROM hypotheses WHERE incident_id = $1 ORDER BY (type = 'root') DESC, created_at LIMIT 1`,
    [incidentId],
  );
  if (!hyp.length) {
    ({ rows: hyp } = await q.query<{ id: string }>(
      `INSERT INTO hypotheses (incident_id, type, status, title) SELECT id, 'root', 'possible', title FROM incidents WHERE id = $1 RETURNING id`,
      [incidentId],
    ));
  }
  const message = (r.row.status_reason as string | undefined) ?? null;
  await q.query(
    `INSERT INTO evidences (hypothesis_id, type, description, ${idColumn(r.kind)}, properties, evidence)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
    [
      hyp[0].id,
      evidenceType(r.kind),
      `${r.kind === 'check' ? 'Check' : 'Component'} ${r.name} is unhealthy`,
      r.id,
      JSON.stringify({ incident_rule_id: ruleId, source: 'incident_rule' }),
      JSON.stringify(message ? { message } : {}),
    ],
  );
  return true;
}

async function addResponders(q: Queryable, incidentId: string, spec: RuleSpec, log: FastifyBaseLogger): Promise<void> {
  const add = async (what: string, sql: string, params: unknown[]) => {
    // each in a savepoint: a team whose configuration is incomplete must not cost the incident
    await q.query('SAVEPOINT rule_responder');
    try {
      await q.query(sql, params);
      await q.query('RELEASE SAVEPOINT rule_responder');
    } catch (err) {
      await q.query('ROLLBACK TO SAVEPOINT rule_responder');
      const e = err as { message?: string; detail?: string };
      log.warn(
        { incident: incidentId, responder: what, reason: [e.message, e.detail].filter(Boolean).join(': ') },
        'incident rule could not add a responder',
      );
    }
  };
  for (const name of spec.responders?.people ?? []) {
    const { rows } = await q.query<{ id: string }>(
      `SELECT id FROM people WHERE (name = $1 OR lower(email) = lower($1)) AND deleted_at IS NULL ORDER BY (name = $1) DESC LIMIT 1`,
      [name],
    );
    if (!rows[0]) {
      log.warn({ incident: incidentId, person: name }, 'incident rule names a person who does not exist');
      continue;
    }
    await add(`person ${name}`, `INSERT INTO responders (incident_id, type, person_id) VALUES ($1, 'person', $2)`, [
      incidentId,
      rows[0].id,
    ]);
  }
  for (const entry of spec.responders?.teams ?? []) {
    const name = typeof entry === 'string' ? entry : entry.name;
    const { rows } = await q.query<{ id: string; spec: unknown }>(
      `SELECT id, spec FROM teams WHERE name = $1 AND deleted_at IS NULL`,
      [name],
    );
    if (!rows[0]) {
      log.warn({ incident: incidentId, team: name }, 'incident rule names a team that does not exist');
      continue;
    }
    const type = (typeof entry === 'string' ? undefined : entry.type) ?? configuredResponderTypes(rows[0].spec)[0];
    if (!type) {
      log.warn({ incident: incidentId, team: name }, 'incident rule names a team without responder types');
      continue;
    }
    await add(
      `team ${name} (${type})`,
      `INSERT INTO responders (incident_id, type, team_id, properties) VALUES ($1, $2, $3, $4::jsonb)`,
      [incidentId, type, rows[0].id, JSON.stringify({ responderType: type })],
    );
  }
}

function templateContext(r: Resource, rule: RuleRow) {
  return { [r.kind]: r.row, resource: r.row, kind: r.kind, rule: { id: rule.id, name: rule.name } };
}

export interface RuleOutcome {
  action: 'opened' | 'joined' | 'none' | 'resolved';
  incidentIds: string[];
}

/** A resource turned unhealthy: the first matching rule opens an incident or joins its open one. */
export async function applyRules(q: Queryable, r: Resource, log: FastifyBaseLogger): Promise<RuleOutcome> {
  const match = await matchingRule(q, r, log);
  if (!match) return { action: 'none', incidentIds: [] };
  const { rule, spec } = match;
  // one rule, one open incident: concurrent failures of two resources queue up here
  await q.query(`SELECT id FROM incident_rules WHERE id = $1 FOR UPDATE`, [rule.id]);
  const { rows: open } = await q.query<{ id: string }>(
    `SELECT id FROM incidents WHERE incident_rule_id = $1 AND status NOT IN ('resolved', 'closed') ORDER BY created_at DESC LIMIT 1`,
    [rule.id],
  );
  if (open[0]) {
    const added = await addEvidence(q, open[0].id, r, rule.id);
    return { action: added ? 'joined' : 'none', incidentIds: [open[0].id] };
  }
  const ctx = templateContext(r, rule);
  const t = spec.template ?? {};
  const title = renderTemplate(t.title || '{{.resource.name}} is unhealthy', ctx).trim() || `${r.name} is unhealthy`;
  const description = t.description
    ? renderTemplate(t.description, ctx)
    : `Opened by incident rule "${rule.name}": ${r.kind} ${r.name} is unhealthy${r.row.status_reason ? ` (${String(r.row.status_reason)})` : ''}.`;
  const severity = t.severity ?? (r.severity && r.severity !== 'info' ? r.severity : 'low');
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO incidents (title, description, type, severity, status, incident_rule_id)
     VALUES ($1, $2, $3, $4, 'open', $5) RETURNING id`,
    [title, description, t.type ?? 'availability', severity, rule.id],
  );
  const incidentId = rows[0].id;
  await q.query(`INSERT INTO hypotheses (incident_id, type, status, title) VALUES ($1, 'root', 'possible', $2)`, [
    incidentId,
    description || title,
  ]);
  await addEvidence(q, incidentId, r, rule.id);
  await addResponders(q, incidentId, spec, log);
  log.info(
    { incident: incidentId, rule: rule.name, resource: `${r.kind}/${r.name}` },
    'incident rule opened an incident',
  );
  return { action: 'opened', incidentIds: [incidentId] };
}

/**
 * A resource is healthy again: each open incident of an autoResolve rule that this resource is
 * evidence of (as added by the rule) is resolved once all resources the rule added are healthy.
 */
export async function autoResolve(
  q: Queryable,
  r: Resource | { kind: ResourceKind; id: string },
  log: FastifyBaseLogger,
): Promise<RuleOutcome> {
  const { rows: candidates } = await q.query<{ id: string }>(
    `SELECT DISTINCT i.id FROM incidents i
       JOIN incident_rules ru ON ru.id = i.incident_rule_id
       JOIN hypotheses h ON h.incident_id = i.id
       JOIN evidences e ON e.hypothesis_id = h.id
     WHERE e.${idColumn(r.kind)} = $1 AND e.properties ->> 'incident_rule_id' = ru.id::text
       AND i.status NOT IN ('resolved', 'closed') AND ru.spec -> 'autoResolve' = 'true'::jsonb`,
    [r.id],
  );
  const resolved: string[] = [];
  for (const { id } of candidates) {
    await q.query(`SELECT id FROM incidents WHERE id = $1 FOR UPDATE`, [id]);
    const { rows } = await q.query<{ unhealthy: number }>(
      `SELECT count(*) FILTER (WHERE coalesce(c.status, co.status, 'healthy') <> 'healthy')::int AS unhealthy
       FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
         LEFT JOIN checks c ON c.id = e.check_id AND c.deleted_at IS NULL
         LEFT JOIN components co ON co.id = e.component_id AND co.deleted_at IS NULL
       WHERE h.incident_id = $1 AND e.properties ->> 'source' = 'incident_rule'`,
      [id],
    );
    if (rows[0].unhealthy > 0) continue;
    const u = await q.query(
      `UPDATE incidents SET status = 'resolved' WHERE id = $1 AND status NOT IN ('resolved', 'closed')`,
      [id],
    );
    if (u.rowCount === 1) {
      resolved.push(id);
      log.info({ incident: id }, 'incident rule resolved its incident: every resource is healthy again');
    }
  }
  return { action: resolved.length ? 'resolved' : 'none', incidentIds: resolved };
}
