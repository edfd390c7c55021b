/**
 * Writes the desired components of one topology in one transaction: new ones inserted, changed
 * ones updated in place (found by external id; a soft-deleted one comes back with its id), the ones
 * no longer in the spec soft-deleted (only after a complete read: a lookup that failed must not
 * delete what it found last time). Then the engine's links: check and catalog selectors
 * (selector_id `topology:<selector>`), the item a lookup made a component from (`topology`), and
 * team links (`topology`). Links people made (`manual`) and check specs made (`spec:`) are left
 * alone. Bulk statements over jsonb_to_recordset keep a 10,000-component run to a few statements.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '#server/db/index.ts';
import type { DesiredComponent } from './build.ts';
import { checkWhere, configWhere } from './lookups.ts';

export interface ReconcileCounts {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  errors: number;
}

interface ExistingRow {
  id: string;
  external_id: string;
  deleted: boolean;
  fingerprint: string;
}

/** JSON with sorted keys: the same value from jsonb and from JS compares equal. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

const COLUMNS = [
  'parent_id',
  'path',
  'name',
  'title',
  'type',
  'icon',
  'description',
  'owner',
  'hidden',
  'labels',
  'properties',
  'logs',
  'status_expr',
] as const;

type Written = Record<(typeof COLUMNS)[number] | 'id' | 'external_id', unknown>;

/** Selector links resolved per component are capped: a selector is not a bulk import. */
const MAX_LINKS_PER_SELECTOR = 1000;

export async function writeComponents(
  tx: Queryable,
  topology: { id: string; agent_id: string },
  desired: DesiredComponent[],
  opts: { complete: boolean },
): Promise<{ counts: ReconcileCounts; errors: string[] }> {
  const errors: string[] = [];
  const { rows: existing } = await tx.query<ExistingRow>(
    `SELECT id, external_id, deleted_at IS NOT NULL AS deleted,
            jsonb_build_array(parent_id, path, name, title, type, icon, description, owner, hidden,
              coalesce(labels, '{}'::jsonb), coalesce(properties, '[]'::jsonb), coalesce(logs, '[]'::jsonb), status_expr)::text AS fingerprint
     FROM components WHERE topology_id = $1 AND external_id IS NOT NULL
     ORDER BY (deleted_at IS NULL) DESC, deleted_at DESC NULLS FIRST`,
    [topology.id],
  );
  // live rows first, then the most recently deleted: the first per external id is the one kept
  const byExternal = new Map<string, ExistingRow>();
  for (const r of existing) if (!byExternal.has(r.external_id)) byExternal.set(r.external_id, r);

  const idOf = new Map<string, string>();
  for (const c of desired) idOf.set(c.externalId, byExternal.get(c.externalId)?.id ?? randomUUID());
  const pathOf = new Map<string, string>();
  const byExt = new Map(desired.map((c) => [c.externalId, c]));
  const path = (c: DesiredComponent): string => {
    const known = pathOf.get(c.externalId);
    if (known !== undefined) return known;
    const parent = c.parentExternalId ? byExt.get(c.parentExternalId) : undefined;
    const p = parent ? [path(parent), idOf.get(parent.externalId)].filter(Boolean).join('.') : '';
    pathOf.set(c.externalId, p);
    return p;
  };

  const inserts: Written[] = [];
  const updates: Written[] = [];
  let unchanged = 0;
  for (const c of desired) {
    const row: Written = {
      id: idOf.get(c.externalId),
      external_id: c.externalId,
      parent_id: c.parentExternalId ? idOf.get(c.parentExternalId) : null,
      path: path(c),
      name: c.name,
      title: c.title,
      type: c.type,
      icon: c.icon,
      description: c.description,
      owner: c.owner,
      hidden: c.hidden,
      labels: c.labels,
      properties: c.properties,
      logs: c.logs,
      status_expr: c.statusExpr,
    };
    const old = byExternal.get(c.externalId);
    if (!old) inserts.push(row);
    else if (old.deleted || stable(JSON.parse(old.fingerprint)) !== stable(COLUMNS.map((k) => row[k])))
      updates.push(row);
    else unchanged++;
  }

  const recordset = `x(id uuid, external_id text, parent_id uuid, path text, name text, title text, type text, icon text,
    description text, owner text, hidden boolean, labels jsonb, properties jsonb, logs jsonb, status_expr text)`;
  if (inserts.length)
    await tx.query(
      `INSERT INTO components (id, topology_id, agent_id, external_id, parent_id, path, name, title, type, icon,
         description, owner, hidden, labels, properties, logs, status_expr)
       SELECT x.id, $2, $3, x.external_id, x.parent_id, x.path, x.name, x.title, x.type, x.icon, x.description,
         x.owner, x.hidden, x.labels, x.properties, x.logs, x.status_expr
       FROM jsonb_to_recordset($1::jsonb) AS ${recordset}`,
      [JSON.stringify(inserts), topology.id, topology.agent_id],
    );
  if (updates.length)
    await tx.query(
      `UPDATE components c SET parent_id = x.parent_id, path = x.path, name = x.name, title = x.title,
         type = x.type, icon = x.icon, description = x.description, owner = x.owner, hidden = x.hidden,
         labels = x.labels, properties = x.properties, logs = x.logs, status_expr = x.status_expr,
         deleted_at = NULL, agent_id = $2
       FROM jsonb_to_recordset($1::jsonb) AS ${recordset}
       WHERE c.id = x.id`,
      [JSON.stringify(updates), topology.agent_id],
    );
  let deleted = 0;
  if (opts.complete) {
    const { rows } = await tx.query<{ n: number }>(
      `WITH gone AS (
         UPDATE components c SET deleted_at = now()
         WHERE c.topology_id = $1 AND c.deleted_at IS NULL AND NOT (c.id = ANY($2::uuid[]))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [topology.id, [...idOf.values()]],
    );
    deleted = rows[0].n;
  }

  errors.push(...(await writeLinks(tx, topology.id, desired, idOf)));
  return {
    counts: { added: inserts.length, updated: updates.length, unchanged, deleted, errors: errors.length },
    errors,
  };
}

interface LinkRow {
  component_id: string;
  target_id: string;
  selector_id: string;
  canary_id?: string;
}

/**
 * One kind of engine-made link (selector `topology` or `topology:<selector>`) of a topology's
 * components made to match `rows`: the links present are read once and compared here, so a run
 * that changed nothing writes nothing; new ones are inserted (a soft-deleted one revived), gone
 * ones soft-deleted.
 */
async function syncLinks(
  tx: Queryable,
  topologyId: string,
  kind: { table: 'config_component_relationships' | 'check_component_relationships'; target: string; rows: LinkRow[] },
): Promise<void> {
  const { table, target } = kind;
  const { rows: had } = await tx.query<LinkRow & { deleted: boolean }>(
    `SELECT r.component_id, r.${target} AS target_id, r.selector_id, r.deleted_at IS NOT NULL AS deleted
     FROM ${table} r JOIN components c ON c.id = r.component_id
     WHERE c.topology_id = $1 AND (r.selector_id = 'topology' OR r.selector_id LIKE 'topology:%')`,
    [topologyId],
  );
  const key = (r: LinkRow) => `${r.component_id}|${r.target_id}|${r.selector_id}`;
  const live = new Set(had.filter((r) => !r.deleted).map(key));
  const wanted = new Map(kind.rows.map((r) => [key(r), r]));
  const add = [...wanted.values()].filter((r) => !live.has(key(r)));
  const drop = had.filter((r) => !r.deleted && !wanted.has(key(r)));
  const check = table === 'check_component_relationships';
  if (add.length)
    await tx.query(
      `INSERT INTO ${table} (component_id, ${target}, selector_id${check ? ', canary_id' : ''})
       SELECT x.component_id, x.target_id, x.selector_id${check ? ', x.canary_id' : ''}
       FROM jsonb_to_recordset($1::jsonb) AS x(component_id uuid, target_id uuid, selector_id text, canary_id uuid)
       ON CONFLICT (component_id, ${target}, selector_id) DO UPDATE SET deleted_at = NULL`,
      [JSON.stringify(add)],
    );
  if (drop.length)
    await tx.query(
      `UPDATE ${table} r SET deleted_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(component_id uuid, target_id uuid, selector_id text)
       WHERE r.component_id = x.component_id AND r.${target} = x.target_id AND r.selector_id = x.selector_id`,
      [JSON.stringify(drop)],
    );
}

/** The engine's links of this topology's components, made to match the spec. */
async function writeLinks(
  tx: Queryable,
  topologyId: string,
  desired: DesiredComponent[],
  idOf: Map<string, string>,
): Promise<string[]> {
  const errors: string[] = [];
  const configLinks: { component_id: string; config_id: string; selector_id: string }[] = [];
  const checkLinks: { component_id: string; check_id: string; canary_id: string; selector_id: string }[] = [];
  const teamLinks: { component_id: string; team: string }[] = [];
  // one query per distinct selector, shared by every component that names it
  const configCache = new Map<string, string[]>();
  const checkCache = new Map<string, { id: string; canary_id: string }[]>();
  for (const c of desired) {
    const id = idOf.get(c.externalId)!;
    if (c.configId) configLinks.push({ component_id: id, config_id: c.configId, selector_id: 'topology' });
    if (c.checkId && c.canaryId)
      checkLinks.push({ component_id: id, check_id: c.checkId, canary_id: c.canaryId, selector_id: 'topology' });
    for (const sel of c.configSelectors) {
      const key = stable(sel);
      let ids = configCache.get(key);
      if (!ids) {
        const params: unknown[] = [];
        ids = (
          await tx.query<{ id: string }>(
            `SELECT t.id FROM config_items t WHERE ${configWhere(sel, params)} ORDER BY t.name LIMIT ${MAX_LINKS_PER_SELECTOR}`,
            params,
          )
        ).rows.map((r) => r.id);
        configCache.set(key, ids);
      }
      for (const cid of ids) configLinks.push({ component_id: id, config_id: cid, selector_id: `topology:${key}` });
    }
    for (const sel of c.checkSelectors) {
      const key = stable(sel);
      let found = checkCache.get(key);
      if (!found) {
        const params: unknown[] = [];
        found = (
          await tx.query<{ id: string; canary_id: string }>(
            `SELECT t.id, t.canary_id FROM checks t WHERE ${checkWhere(sel, params)} ORDER BY t.name LIMIT ${MAX_LINKS_PER_SELECTOR}`,
            params,
          )
        ).rows;
        checkCache.set(key, found);
      }
      for (const k of found)
        checkLinks.push({ component_id: id, check_id: k.id, canary_id: k.canary_id, selector_id: `topology:${key}` });
    }
    for (const t of c.teams) teamLinks.push({ component_id: id, team: t });
  }

  await syncLinks(tx, topologyId, {
    table: 'config_component_relationships',
    target: 'config_id',
    rows: configLinks.map((l) => ({ ...l, target_id: l.config_id })),
  });
  await syncLinks(tx, topologyId, {
    table: 'check_component_relationships',
    target: 'check_id',
    rows: checkLinks.map((l) => ({ ...l, target_id: l.check_id })),
  });

  const names = [...new Set(teamLinks.map((t) => t.team))];
  const { rows: teams } = names.length
    ? await tx.query<{ id: string; name: string }>(
        `SELECT id, name FROM teams WHERE name = ANY($1::text[]) AND deleted_at IS NULL`,
        [names],
      )
    : { rows: [] };
  const teamId = new Map(teams.map((t) => [t.name, t.id]));
  for (const n of names) if (!teamId.has(n)) errors.push(`team "${n}" not found: create it under Settings > Teams`);
  const teamRows = teamLinks
    .filter((t) => teamId.has(t.team))
    .map((t) => ({ team_id: teamId.get(t.team), component_id: t.component_id }));
  const { rows: had } = await tx.query<{ team_id: string; component_id: string }>(
    `SELECT r.team_id, r.component_id FROM team_components r JOIN components c ON c.id = r.component_id
     WHERE c.topology_id = $1 AND r.selector_id = 'topology'`,
    [topologyId],
  );
  const key = (r: { team_id: unknown; component_id: unknown }) => `${r.team_id}|${r.component_id}`;
  const wanted = new Set(teamRows.map(key));
  const present = new Set(had.map(key));
  const add = teamRows.filter((r) => !present.has(key(r)));
  const drop = had.filter((r) => !wanted.has(key(r)));
  if (add.length)
    await tx.query(
      `INSERT INTO team_components (team_id, component_id, role, selector_id)
       SELECT DISTINCT x.team_id, x.component_id, 'owner', 'topology'
       FROM jsonb_to_recordset($1::jsonb) AS x(team_id uuid, component_id uuid)
       ON CONFLICT (team_id, component_id, selector_id) DO NOTHING`,
      [JSON.stringify(add)],
    );
  if (drop.length)
    await tx.query(
      `DELETE FROM team_components r USING jsonb_to_recordset($1::jsonb) AS x(team_id uuid, component_id uuid)
       WHERE r.team_id = x.team_id AND r.component_id = x.component_id AND r.selector_id = 'topology'`,
      [JSON.stringify(drop)],
    );
  return errors;
}
