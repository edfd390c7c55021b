/**
 * Status roll-up of one topology: a component's status is the worst of its children's, its
 * attached checks' (a check that never ran is unknown) and its attached catalog items' health
 * (unhealthy > warning > unknown > healthy; a component with none of them is unknown), unless its
 * `statusExpr` (CEL, with the evaluator's cost limits) says otherwise. Its summary counts checks by
 * status, open insights and open incidents by type and severity (each over its whole subtree,
 * each check, insight or incident once) and its direct children by status (core's
 * ComponentSummary). Only changed rows are written; a status change publishes
 * component.status.<status> through the topology SQL's trigger, in this transaction.
 */
import type { ComponentStatus, ComponentSummary } from '@watchdeck/core';
import type { Queryable } from '#server/db/index.ts';
import { evaluate } from '#server/cel/index.ts';
import { stable } from './reconcile.ts';

type Health = 'healthy' | 'unhealthy' | 'warning' | 'unknown';
const HEALTHS: readonly string[] = ['healthy', 'unhealthy', 'warning', 'unknown', 'info'];
/** worse is higher */
const SEVERITY: Record<ComponentStatus, number> = { unhealthy: 4, warning: 3, unknown: 2, healthy: 1, info: 0 };

interface Row {
  id: string;
  parent_id: string | null;
  name: string;
  type: string | null;
  labels: Record<string, string> | null;
  properties: { name: string; text?: string; value?: number }[] | null;
  status: ComponentStatus;
  status_reason: string | null;
  status_expr: string | null;
  summary: ComponentSummary | null;
}

interface Node extends Row {
  children: Node[];
  checks: Map<string, { name: string; status: Health }>;
  configs: { id: string; name: string; type: string; health: string | null }[];
  insights: Map<string, { type: string; severity: string }>;
  incidents: Map<string, { type: string; severity: string }>;
}

export interface RollupOutcome {
  changed: number;
  errors: string[];
}

function countBy(items: Iterable<{ type: string; severity: string }>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const { type, severity } of items) {
    const t = (out[type] ??= {});
    t[severity] = (t[severity] ?? 0) + 1;
  }
  return out;
}

/**
 * One writer of a topology's components at a time, to the end of the transaction: a reconcile
 * takes it before its first write and a roll-up before its first read, so a reconcile and a
 * check's event never wait on each other's rows the other way round (a deadlock).
 */
export async function lockTopology(q: Queryable, topologyId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('topology:' || $1))`, [topologyId]);
}

export async function rollupTopology(q: Queryable, topologyId: string): Promise<RollupOutcome> {
  await lockTopology(q, topologyId);
  const { rows } = await q.query<Row>(
    `SELECT id, parent_id, name, type, labels, properties, status, status_reason, status_expr, summary
     FROM components WHERE topology_id = $1 AND deleted_at IS NULL`,
    [topologyId],
  );
  if (!rows.length) return { changed: 0, errors: [] };
  const nodes = new Map<string, Node>(
    rows.map((r) => [
      r.id,
      { ...r, children: [], checks: new Map(), configs: [], insights: new Map(), incidents: new Map() },
    ]),
  );
  for (const n of nodes.values()) if (n.parent_id) nodes.get(n.parent_id)?.children.push(n);

  const mine = `SELECT id FROM components WHERE topology_id = $1 AND deleted_at IS NULL`;
  const checks = await q.query<{ component_id: string; id: string; name: string; status: string | null }>(
    `SELECT DISTINCT r.component_id, k.id, k.name, k.status FROM check_component_relationships r
       JOIN checks k ON k.id = r.check_id AND k.deleted_at IS NULL
       WHERE r.deleted_at IS NULL AND r.component_id IN (${mine})`,
    [topologyId],
  );
  const configs = await q.query<{
    component_id: string;
    id: string;
    name: string;
    type: string;
    health: string | null;
  }>(
    `SELECT DISTINCT r.component_id, ci.id, ci.name, ci.type, ci.health FROM config_component_relationships r
       JOIN config_items ci ON ci.id = r.config_id AND ci.deleted_at IS NULL
       WHERE r.deleted_at IS NULL AND r.component_id IN (${mine})`,
    [topologyId],
  );
  const insights = await q.query<{ component_id: string; id: string; type: string; severity: string }>(
    `SELECT DISTINCT r.component_id, a.id, a.analysis_type AS type, a.severity FROM config_component_relationships r
       JOIN config_analysis a ON a.config_id = r.config_id AND a.status = 'open'
       WHERE r.deleted_at IS NULL AND r.component_id IN (${mine})`,
    [topologyId],
  );
  const incidents = await q.query<{ component_id: string; id: string; type: string; severity: string }>(
    `SELECT DISTINCT e.component_id, i.id, i.type, i.severity FROM evidences e
       JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id
       WHERE i.status NOT IN ('resolved', 'closed') AND e.component_id IN (${mine})`,
    [topologyId],
  );
  for (const r of checks.rows) {
    const status: Health = r.status === 'healthy' || r.status === 'unhealthy' ? r.status : 'unknown';
    nodes.get(r.component_id)?.checks.set(r.id, { name: r.name, status });
  }
  for (const r of configs.rows) nodes.get(r.component_id)?.configs.push(r);
  for (const r of insights.rows) nodes.get(r.component_id)?.insights.set(r.id, r);
  for (const r of incidents.rows) nodes.get(r.component_id)?.incidents.set(r.id, r);

  const errors: string[] = [];
  const changed: { id: string; status: string; status_reason: string | null; summary: ComponentSummary }[] = [];
  const done = new Set<string>();

  /** Post-order: children first; the subtree's checks, insights and incidents flow up. */
  const visit = (n: Node, depth: number): void => {
    if (done.has(n.id) || depth > 200) return;
    done.add(n.id);
    let worst: ComponentStatus | undefined;
    let reason: string | null = null;
    const consider = (s: ComponentStatus, why: string) => {
      if (worst === undefined || SEVERITY[s] > SEVERITY[worst]) {
        worst = s;
        reason = s === 'healthy' || s === 'info' ? null : why;
      }
    };
    const subtreeChecks = new Map(n.checks);
    const subtreeInsights = new Map(n.insights);
    const subtreeIncidents = new Map(n.incidents);
    const byStatus: Partial<Record<Health, number>> = {};
    for (const child of n.children) {
      visit(child, depth + 1);
      const s = child.status;
      consider(s, `${child.name} is ${s}`);
      if (s !== 'info') byStatus[s] = (byStatus[s] ?? 0) + 1;
      for (const [k, v] of child.checks) subtreeChecks.set(k, v);
      for (const [k, v] of child.insights) subtreeInsights.set(k, v);
      for (const [k, v] of child.incidents) subtreeIncidents.set(k, v);
    }
    for (const k of n.checks.values()) consider(k.status, `check ${k.name} is ${k.status}`);
    for (const c of n.configs)
      if (c.health && HEALTHS.includes(c.health)) consider(c.health as Health, `${c.type} ${c.name} is ${c.health}`);
    let status: ComponentStatus = worst ?? 'unknown';
    const checkCounts: Partial<Record<Health, number>> = {};
    for (const k of subtreeChecks.values()) checkCounts[k.status] = (checkCounts[k.status] ?? 0) + 1;
    const summary: ComponentSummary = {
      ...byStatus,
      checks: checkCounts,
      insights: countBy(subtreeInsights.values()),
      incidents: countBy(subtreeIncidents.values()),
    };
    if (n.status_expr) {
      try {
        const r = evaluate(n.status_expr, {
          status,
          summary: summary as never,
          component: {
            id: n.id,
            name: n.name,
            type: n.type ?? '',
            labels: n.labels ?? {},
            properties: Object.fromEntries((n.properties ?? []).map((p) => [p.name, p.value ?? p.text ?? null])),
          } as never,
          checks: [...n.checks.values()] as never,
          configs: n.configs.map((c) => ({ name: c.name, type: c.type, health: c.health ?? 'unknown' })) as never,
          children: n.children.map((c) => ({ name: c.name, type: c.type ?? '', status: c.status })) as never,
        });
        const s = r === true ? 'healthy' : r === false ? 'unhealthy' : typeof r === 'string' ? r.toLowerCase() : '';
        if (!HEALTHS.includes(s))
          throw new Error(`returned ${JSON.stringify(r)}, not one of ${HEALTHS.join(', ')} or a boolean`);
        if (s !== status) reason = `statusExpr: ${n.status_expr}`;
        status = s as ComponentStatus;
      } catch (err) {
        errors.push(`${n.name}: statusExpr ${(err as Error).message}`);
      }
    }
    // the subtree's sets now stand for this node (its parent merges them)
    n.checks = subtreeChecks;
    n.insights = subtreeInsights;
    n.incidents = subtreeIncidents;
    if (status !== n.status || reason !== n.status_reason || stable(summary) !== stable(n.summary ?? {}))
      changed.push({ id: n.id, status, status_reason: reason, summary });
    n.status = status;
  };
  for (const n of nodes.values()) if (!n.parent_id || !nodes.has(n.parent_id)) visit(n, 0);
  for (const n of nodes.values()) visit(n, 0); // a cycle's members (never made by the engine) still get a status

  if (changed.length)
    await q.query(
      `UPDATE components c SET status = x.status, status_reason = x.status_reason, summary = x.summary
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, status text, status_reason text, summary jsonb)
       WHERE c.id = x.id`,
      [JSON.stringify(changed)],
    );
  return { changed: changed.length, errors };
}

/** The topologies whose components a check or a catalog item is attached to. */
export async function topologiesOf(q: Queryable, ref: { checkId?: string; configId?: string }): Promise<string[]> {
  const { rows } = ref.checkId
    ? await q.query<{ topology_id: string }>(
        `SELECT DISTINCT c.topology_id FROM check_component_relationships r JOIN components c ON c.id = r.component_id
         WHERE r.check_id = $1 AND r.deleted_at IS NULL AND c.deleted_at IS NULL AND c.topology_id IS NOT NULL`,
        [ref.checkId],
      )
    : await q.query<{ topology_id: string }>(
        `SELECT DISTINCT c.topology_id FROM config_component_relationships r JOIN components c ON c.id = r.component_id
         WHERE r.config_id = $1 AND r.deleted_at IS NULL AND c.deleted_at IS NULL AND c.topology_id IS NOT NULL`,
        [ref.configId],
      );
  return rows.map((r) => r.topology_id);
}
