/**
 * Relationship rules from a scraper's spec (`spec.relationships`), applied after each scrape to
 * the items it saw. A rule links an item to the catalog items a selector matches:
 *
 *   relationships:
 *     - filter: config.type == "Kubernetes::Deployment"   # CEL on the item (optional)
 *       type: Kubernetes::Service                         # a value, {value}, {label: <item label>} or {expr: CEL}
 *       name: {label: app}
 *       namespace: {expr: config.tags.namespace}
 *       labels: {app: {label: app}}                        # the target's labels must equal these
 *       expr: '[{"type": "Kubernetes::ConfigMap", "name": config.name + "-config"}]'  # CEL: more selectors
 *       relation: uses
 *       parent: false                                      # true: the matched items point at this one
 *
 * Links a rule made carry selector_id `rule:<scraper>:<index>`; a link the rule no longer finds is
 * removed at the next scrape (manual links are never touched).
 */
import type { Queryable } from '#server/db/index.ts';
import { evaluate } from '#server/cel/index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- specs and bodies are read as JSON */

interface Selector {
  id?: string;
  type?: string;
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
}

interface RuleItem {
  id: string;
  name: string;
  type: string;
  config_class: string;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  config: unknown;
}

const celVars = (item: RuleItem) => ({
  config: {
    id: item.id,
    name: item.name,
    type: item.type,
    config_class: item.config_class,
    labels: item.labels ?? {},
    tags: item.tags ?? {},
    namespace: item.tags?.namespace ?? '',
    config: item.config ?? {},
  },
});

/** A selector field: a plain value, {value}, {label: name} (the item's label) or {expr: CEL}. */
function fieldValue(v: unknown, item: RuleItem): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v !== 'object') return String(v);
  const o = v as Record<string, unknown>;
  if (typeof o.value === 'string') return o.value;
  if (typeof o.label === 'string') return item.labels?.[o.label];
  if (typeof o.expr === 'string') {
    const r = evaluate(o.expr, celVars(item));
    return r === null || r === undefined ? undefined : String(r);
  }
  return undefined;
}

function selectorsOf(rule: Record<string, any>, item: RuleItem): Selector[] {
  const out: Selector[] = [];
  const direct: Selector = {};
  let any = false;
  for (const f of ['id', 'type', 'name', 'namespace'] as const) {
    if (rule[f] === undefined) continue;
    any = true;
    const v = fieldValue(rule[f], item);
    if (v === undefined) return []; // asked for, but the item has nothing to match with
    direct[f] = v;
  }
  if (rule.labels && typeof rule.labels === 'object') {
    any = true;
    direct.labels = {};
    for (const [k, v] of Object.entries(rule.labels)) {
      const value = fieldValue(v, item);
      if (value === undefined) return [];
      direct.labels[k] = value;
    }
  }
  if (any) out.push(direct);
  if (typeof rule.expr === 'string') {
    const r = evaluate(rule.expr, celVars(item));
    for (const s of Array.isArray(r) ? r : r ? [r] : [])
      if (s && typeof s === 'object') {
        const sel: Selector = {};
        for (const f of ['id', 'type', 'name', 'namespace'] as const) if (s[f] !== undefined) sel[f] = String(s[f]);
        if (s.labels && typeof s.labels === 'object')
          sel.labels = Object.fromEntries(Object.entries(s.labels).map(([k, v]) => [k, String(v)]));
        if (Object.keys(sel).length) out.push(sel);
      }
  }
  return out;
}

export interface RuleOutcome {
  linked: number;
  unlinked: number;
  errors: string[];
}

export async function applyRelationshipRules(
  tx: Queryable,
  scraperId: string,
  configIds: string[],
): Promise<RuleOutcome> {
  const outcome: RuleOutcome = { linked: 0, unlinked: 0, errors: [] };
  const spec = (await tx.query<{ spec: any }>(`SELECT spec FROM config_scrapers WHERE id = $1`, [scraperId])).rows[0]
    ?.spec;
  const rules: Record<string, any>[] = Array.isArray(spec?.relationships) ? spec.relationships : [];
  const prefix = `rule:${scraperId}:`;
  if (!configIds.length) return outcome;
  const items = (
    await tx.query<RuleItem>(
      `SELECT id, name, type, config_class, labels, tags, config FROM config_items WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
      [configIds],
    )
  ).rows;
  const wanted: { from: string; to: string; relation: string; selector: string }[] = [];
  rules.forEach((rule, i) => {
    if (!rule || typeof rule !== 'object') return;
    for (const item of items) {
      try {
        if (typeof rule.filter === 'string' && evaluate(rule.filter, celVars(item)) !== true) continue;
        for (const sel of selectorsOf(rule, item))
          wanted.push({
            from: item.id,
            to: JSON.stringify(sel),
            relation: String(rule.relation ?? ''),
            selector: `${prefix}${i}`,
          });
      } catch (err) {
        if (outcome.errors.length < 20)
          outcome.errors.push(`relationships[${i}] on ${item.type} ${item.name}: ${(err as Error).message}`);
      }
    }
  });
  // resolve each selector to catalog items, then write the links both rules and items agree on
  const links: [string, string, string, string][] = [];
  for (const w of wanted) {
    const s = JSON.parse(w.to) as Selector;
    const r = await tx.query<{ id: string }>(
      `SELECT id FROM config_items
       WHERE deleted_at IS NULL AND id <> $1
         AND ($2::uuid IS NULL OR id = $2::uuid) AND ($3::text IS NULL OR type = $3) AND ($4::text IS NULL OR name = $4)
         AND ($5::text IS NULL OR tags ->> 'namespace' = $5) AND ($6::jsonb IS NULL OR labels @> $6::jsonb)
       LIMIT 1000`,
      [
        w.from,
        s.id && /^[0-9a-f-]{36}$/i.test(s.id) ? s.id : null,
        s.type ?? null,
        s.name ?? null,
        s.namespace ?? null,
        s.labels ? JSON.stringify(s.labels) : null,
      ],
    );
    const rule = rules[Number(w.selector.slice(prefix.length))];
    for (const { id } of r.rows)
      links.push(rule?.parent === true ? [id, w.from, w.relation, w.selector] : [w.from, id, w.relation, w.selector]);
  }
  if (links.length) {
    const r = await tx.query(
      `INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[])
       ON CONFLICT (config_id, related_id, selector_id) DO UPDATE SET relation = excluded.relation, deleted_at = NULL
       WHERE config_relationships.relation IS DISTINCT FROM excluded.relation OR config_relationships.deleted_at IS NOT NULL`,
      [links.map((l) => l[0]), links.map((l) => l[1]), links.map((l) => l[2]), links.map((l) => l[3])],
    );
    outcome.linked = r.rowCount;
  }
  // links this scraper's rules made for these items that no rule makes any more (the item a rule
  // ran on is the link's config_id, or its related_id for a parent rule)
  const parentRules = rules.map((r, i) => (r?.parent === true ? i : -1)).filter((i) => i >= 0);
  const del = await tx.query(
    `DELETE FROM config_relationships r
     WHERE starts_with(r.selector_id, $1)
       AND CASE WHEN split_part(r.selector_id, ':', 3)::int = ANY($6::int[]) THEN r.related_id ELSE r.config_id END = ANY($2::uuid[])
       AND NOT EXISTS (SELECT 1 FROM unnest($3::uuid[], $4::uuid[], $5::text[]) k(a, b, s)
                       WHERE k.a = r.config_id AND k.b = r.related_id AND k.s = r.selector_id)`,
    [prefix, configIds, links.map((l) => l[0]), links.map((l) => l[1]), links.map((l) => l[3]), parentRules],
  );
  outcome.unlinked = del.rowCount;
  return outcome;
}
