import type { Db, Queryable } from '../db/index.ts';
import type { CheckRow } from './sync.ts';

/**
 * Links from checks to the configs and components they watch (check_config_relationships,
 * check_component_relationships; read by check_summary_for_config, checks_by_component and the
 * drawer's Relationships tab). A check spec declares them:
 *
 *   relationships:
 *     configs:    [{ name: orders-db, type: Postgres::Database }]
 *     components: [{ name: "payments-*", labels: { team: payments } }]
 *
 * A selector matches on id, name (`*` wildcards), type, namespace and labels (all given must hold),
 * at most 100 targets each. Links made here carry selector_id `spec:<selector>`; links made by hand
 * or by the topology engine are left alone. Selectors are resolved when the canary is synced and
 * again every few minutes, so configs scraped later get linked too.
 */
type Selector = { id?: string; name?: string; type?: string; namespace?: string; labels?: Record<string, string> };

const MAX_TARGETS = 100;

function selectors(spec: Record<string, unknown>, kind: 'configs' | 'components'): Selector[] {
  const rel = spec.relationships as Record<string, unknown> | undefined;
  const list = rel && typeof rel === 'object' ? rel[kind] : undefined;
  return Array.isArray(list) ? (list.filter((s) => s && typeof s === 'object') as Selector[]) : [];
}

function where(sel: Selector, table: 'config_items' | 'components', params: unknown[]): string {
  const parts = ['t.deleted_at IS NULL'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (sel.id) add('t.id::text = ?', sel.id);
  if (sel.name) add('t.name LIKE ?', sel.name.replace(/[%_\\]/g, '\\$&').replace(/\*/g, '%'));
  if (sel.type) add('t.type = ?', sel.type);
  if (sel.namespace)
    add(table === 'config_items' ? "t.tags->>'namespace' = ?" : "t.labels->>'namespace' = ?", sel.namespace);
  if (sel.labels && typeof sel.labels === 'object') add('t.labels @> ?::jsonb', JSON.stringify(sel.labels));
  return parts.join(' AND ');
}

async function link(q: Queryable, canaryId: string, check: CheckRow, kind: 'configs' | 'components'): Promise<void> {
  const table = kind === 'configs' ? 'check_config_relationships' : 'check_component_relationships';
  const target = kind === 'configs' ? 'config_items' : 'components';
  const fk = kind === 'configs' ? 'config_id' : 'component_id';
  const kept: string[] = [];
  for (const sel of selectors(check.spec, kind)) {
    if (!sel.id && !sel.name && !sel.type && !sel.labels) continue; // a selector matching everything is a mistake
    const selectorId = `spec:${JSON.stringify(sel)}`;
    kept.push(selectorId);
    const params: unknown[] = [check.id, canaryId, selectorId];
    await q.query(
      `INSERT INTO ${table} (${fk}, check_id, canary_id, selector_id)
       SELECT t.id, $1, $2, $3 FROM ${target} t WHERE ${where(sel, target, params)} ORDER BY t.name LIMIT ${MAX_TARGETS}
       ON CONFLICT (${fk}, check_id, selector_id) DO UPDATE SET deleted_at = NULL`,
      params,
    );
  }
  await q.query(
    `UPDATE ${table} SET deleted_at = now()
     WHERE check_id = $1 AND selector_id LIKE 'spec:%' AND deleted_at IS NULL AND NOT (selector_id = ANY($2::text[]))`,
    [check.id, kept],
  );
}

export async function resolveRelationships(q: Queryable, canaryId: string, checks: CheckRow[]): Promise<void> {
  const without: string[] = [];
  for (const check of checks) {
    const rel = check.spec && typeof check.spec === 'object' ? check.spec.relationships : undefined;
    if (!rel || typeof rel !== 'object') {
      without.push(check.id);
      continue;
    }
    await link(q, canaryId, check, 'configs');
    await link(q, canaryId, check, 'components');
  }
  if (!without.length) return;
  // Checks that declare no relationships lose the ones this engine made earlier (if any).
  for (const table of ['check_config_relationships', 'check_component_relationships']) {
    await q.query(
      `UPDATE ${table} SET deleted_at = now() WHERE check_id = ANY($1::uuid[]) AND selector_id LIKE 'spec:%' AND deleted_at IS NULL`,
      [without],
    );
  }
}

/** The periodic pass: every live check whose spec declares relationships. */
export async function resolveAllRelationships(db: Db): Promise<number> {
  const { rows } = await db.query<CheckRow & { canary_id: string }>(
    `SELECT id, canary_id, type, name, spec, labels, status FROM checks WHERE deleted_at IS NULL AND spec ? 'relationships'`,
  );
  for (const row of rows) await db.transaction((tx) => resolveRelationships(tx, row.canary_id, [row]));
  return rows.length;
}
