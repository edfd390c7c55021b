/**
 * GET /api/topology (seed 002 section 7.2): the dashboard's components, filtered, sorted and
 * nested on the server. A fixed number of statements whatever the size of the answer (never one
 * per component): the component of `id`, the listed level, the direct children of every listed
 * component, the teams of all of them, and the filter choices (teams, types, health statuses) of
 * the scope.
 *
 *   no id               the roots, each with its direct children
 *   id                  [the component, its children (filtered, sorted) each with its own children]
 *   flatten             every matching component at any depth (under id when given), no nesting
 *   limit               the first `limit` of the listed level (its first page), still with children
 *
 * Filters (status, type, team, labels, agent_id) choose the listed level; nested children are only
 * kept from hidden and deleted components. Filter choices come from the whole scope (every live
 * component, or the descendants of id) before those filters, so a filter never hides its own
 * other choices.
 */
import {
  TOPOLOGY_HEALTH_RANK,
  type ComponentStatus,
  type TopologyComponent,
  type TopologyResponse,
} from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { parseLabels, parseList, type ListingQuery } from './filters.ts';

/** Limits on one answer: listed components, nested children per component and in all. */
const LISTING_LIMITS = { listed: 5000, childrenPerParent: 1000, children: 10_000 } as const;

class Params {
  readonly values: unknown[] = [];
  p(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** The columns of a TopologyComponent, from components `c` (teams come in one statement for all: teamsOf). */
const COLUMNS = `c.id, c.topology_id, c.parent_id, c.path, c.agent_id, c.external_id, c.name, c.title, c.type, c.icon,
  c.description, coalesce(c.labels, '{}'::jsonb) AS labels,
  CASE WHEN jsonb_typeof(c.properties) = 'array' THEN c.properties ELSE '[]'::jsonb END AS properties,
  CASE WHEN jsonb_typeof(c.logs) = 'array' THEN c.logs ELSE '[]'::jsonb END AS logs,
  c.status, c.status_reason, c.hidden, coalesce(c.summary, '{}'::jsonb) AS summary, c.created_at, c.updated_at`;

/** Seed 002 section 4's health ranks (core's TOPOLOGY_HEALTH_RANK), as SQL. */
const HEALTH_RANK_SQL = `CASE c.status ${Object.entries(TOPOLOGY_HEALTH_RANK)
  .map(([status, rank]) => `WHEN '${status}' THEN ${rank}`)
  .join(' ')} ELSE 0 END`;

const STANDARD_SORTS: Record<string, string> = {
  status: HEALTH_RANK_SQL,
  name: 'c.name',
  type: 'c.type',
  updated_at: 'c.updated_at',
};

/**
 * ORDER BY for the query: a standard field, else the headline property of that name (its number,
 * then its text; components without it last). Ties by name, then id, so pages are stable.
 * No sortBy at all is Health descending: the dashboard drops its sort params for that choice.
 */
function orderBy(sql: Params, q: ListingQuery): string {
  const sortBy = q.sortBy && q.sortBy.trim() !== '' ? q.sortBy.trim() : undefined;
  const dir = (q.sortOrder ?? (sortBy ? 'asc' : 'desc')).toUpperCase();
  const keys: string[] = [];
  if (!sortBy || STANDARD_SORTS[sortBy]) keys.push(`${STANDARD_SORTS[sortBy ?? 'status']} ${dir} NULLS LAST`);
  else {
    const name = sql.p(sortBy);
    const prop = (expr: string) =>
      `(SELECT ${expr} FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.properties) = 'array' THEN c.properties ELSE '[]'::jsonb END) p
        WHERE p->>'name' = ${name} LIMIT 1)`;
    keys.push(
      `${prop(`CASE WHEN jsonb_typeof(p->'value') = 'number' THEN (p->>'value')::numeric END`)} ${dir} NULLS LAST`,
      `${prop(`coalesce(p->>'text', CASE WHEN jsonb_typeof(p->'value') = 'string' THEN p->>'value' END)`)} ${dir} NULLS LAST`,
    );
  }
  if (sortBy !== 'name') keys.push('c.name ASC');
  keys.push('c.id ASC');
  return keys.join(', ');
}

/** The WHERE terms of a filter that may include and exclude values of a column. */
function listSql(sql: Params, col: string, text: string | undefined): string[] {
  const { include, exclude } = parseList(text);
  const out: string[] = [];
  if (include.length) out.push(`${col} = ANY(${sql.p(include)}::text[])`);
  if (exclude.length) out.push(`(${col} IS NULL OR NOT ${col} = ANY(${sql.p(exclude)}::text[]))`);
  return out;
}

/** The filters of the listed level (not the scope, not hidden). */
function filterSql(sql: Params, q: ListingQuery): string[] {
  const where = [...listSql(sql, 'c.status', q.status), ...listSql(sql, 'c.type', q.type)];
  const teams = parseList(q.team);
  const team = (values: string[]) =>
    `EXISTS (SELECT 1 FROM team_components tc JOIN teams t ON t.id = tc.team_id
             WHERE tc.component_id = c.id AND t.deleted_at IS NULL
               AND (t.name = ANY(${sql.p(values)}::text[]) OR t.id::text = ANY(${sql.p(values)}::text[])))`;
  if (teams.include.length) where.push(team(teams.include));
  if (teams.exclude.length) where.push(`NOT ${team(teams.exclude)}`);
  const labels = parseLabels(q.labels);
  for (const pair of labels.include) where.push(`c.labels @> ${sql.p(JSON.stringify(pair))}::jsonb`);
  for (const pair of labels.exclude)
    where.push(`NOT coalesce(c.labels @> ${sql.p(JSON.stringify(pair))}::jsonb, false)`);
  if (q.agent_id) where.push(`c.agent_id = ${sql.p(q.agent_id)}::uuid`);
  return where;
}

/** The descendants of a component (not itself), through parent_id; UNION stops at a cycle. */
const descendantsCte = (idParam: string) => `descendants(id) AS (
    SELECT d.id FROM components d WHERE d.parent_id = ${idParam}::uuid AND d.deleted_at IS NULL
    UNION
    SELECT d.id FROM components d JOIN descendants s ON d.parent_id = s.id WHERE d.deleted_at IS NULL
  )`;

type Row = Omit<TopologyComponent, 'components' | 'teams'>;

export type ListingResult =
  | { found: true; response: TopologyResponse; truncated: boolean }
  | { found: false; response?: undefined; truncated?: undefined };

export async function topologyListing(db: Db, q: ListingQuery): Promise<ListingResult> {
  const hiddenSql = q.hidden ? 'true' : 'NOT c.hidden';

  let self: Row | undefined;
  if (q.id) {
    const { rows } = await db.query<Row>(
      `SELECT ${COLUMNS} FROM components c WHERE c.id = $1::uuid AND c.deleted_at IS NULL`,
      [q.id],
    );
    if (!rows[0]) return { found: false };
    self = rows[0];
  }

  // the listed level
  const sql = new Params();
  const where = ['c.deleted_at IS NULL', hiddenSql, ...filterSql(sql, q)];
  let with_ = '';
  if (q.flatten && q.id) {
    with_ = `WITH RECURSIVE ${descendantsCte(sql.p(q.id))}`;
    where.push('c.id IN (SELECT id FROM descendants)');
  } else if (q.id) where.push(`c.parent_id = ${sql.p(q.id)}::uuid`);
  else if (!q.flatten) where.push('c.parent_id IS NULL');
  const listedSql = `${with_} SELECT ${COLUMNS} FROM components c WHERE ${where.join(' AND ')}
    ORDER BY ${orderBy(sql, q)} LIMIT ${Math.min(q.limit ?? Infinity, LISTING_LIMITS.listed + 1)}`;

  const [listed, choices] = await Promise.all([db.query<Row>(listedSql, sql.values), filterChoices(db, q)]);
  // a page the caller asked for (limit) is not a cut: only the server's own limit is
  let truncated = listed.rows.length > LISTING_LIMITS.listed;
  const rows = listed.rows.slice(0, LISTING_LIMITS.listed);

  const childRows: Row[] = [];
  if (!q.flatten && rows.length) {
    const csql = new Params();
    const ids = csql.p(rows.map((r) => r.id));
    const order = orderBy(csql, q);
    const { rows: children } = await db.query<Row & { rn: number }>(
      `SELECT * FROM (
         SELECT ${COLUMNS}, row_number() OVER (PARTITION BY c.parent_id ORDER BY ${order}) AS rn
         FROM components c WHERE c.parent_id = ANY(${ids}::uuid[]) AND c.deleted_at IS NULL AND ${hiddenSql}
       ) x WHERE rn <= ${LISTING_LIMITS.childrenPerParent + 1} ORDER BY parent_id, rn LIMIT ${LISTING_LIMITS.children + 1}`,
      csql.values,
    );
    if (children.length > LISTING_LIMITS.children) truncated = true;
    for (const { rn, ...c } of children.slice(0, LISTING_LIMITS.children)) {
      if (Number(rn) > LISTING_LIMITS.childrenPerParent) truncated = true;
      else childRows.push(c);
    }
  }

  const teams = await teamsOf(db, [
    ...(self ? [self.id] : []),
    ...rows.map((r) => r.id),
    ...childRows.map((r) => r.id),
  ]);
  // in place: a flat list is thousands of rows, and copies of them were most of its garbage
  const withTeams = (r: Row): TopologyComponent => Object.assign(r, { teams: teams.get(r.id) ?? [] });
  let components: TopologyComponent[];
  if (q.flatten) components = rows.map(withTeams);
  else {
    const byParent = new Map<string, TopologyComponent[]>();
    for (const c of childRows) {
      const list = byParent.get(c.parent_id!) ?? [];
      list.push(withTeams(c));
      byParent.set(c.parent_id!, list);
    }
    components = rows.map((r) => Object.assign(withTeams(r), { components: byParent.get(r.id) ?? [] }));
    if (self) components = [Object.assign(withTeams(self), { components })];
  }

  return { found: true, truncated, response: { components, ...choices } };
}

/** The teams of the components, in one statement (team links are few; a join per row is not). */
async function teamsOf(db: Db, ids: string[]): Promise<Map<string, TopologyComponent['teams']>> {
  const out = new Map<string, TopologyComponent['teams']>();
  if (!ids.length) return out;
  const { rows } = await db.query<{ component_id: string; id: string; name: string; icon: string | null }>(
    `SELECT tc.component_id, t.id, t.name, t.icon FROM team_components tc JOIN teams t ON t.id = tc.team_id
     WHERE tc.component_id = ANY($1::uuid[]) AND t.deleted_at IS NULL ORDER BY t.name, t.id`,
    [ids],
  );
  for (const { component_id, ...team } of rows) {
    const list = out.get(component_id) ?? [];
    if (!list.some((t) => t.id === team.id)) list.push(team);
    out.set(component_id, list);
  }
  return out;
}

/** Teams, types and health statuses of the scope, for the filters' choices. */
async function filterChoices(db: Db, q: ListingQuery): Promise<Omit<TopologyResponse, 'components'>> {
  const sql = new Params();
  const where = ['c.deleted_at IS NULL', q.hidden ? 'true' : 'NOT c.hidden'];
  let with_ = '';
  if (q.id) {
    with_ = `${descendantsCte(sql.p(q.id))}, `;
    where.push('c.id IN (SELECT id FROM descendants)');
  }
  if (q.agent_id) where.push(`c.agent_id = ${sql.p(q.agent_id)}::uuid`);
  // types and statuses from the scope's (type, status) groups, a handful of rows, so no DISTINCT
  // sorts thousands of values; team names through the team links, which are few
  const { rows } = await db.query<{ types: string[]; statuses: string[]; teams: string[] }>(
    `WITH RECURSIVE ${with_}pairs AS (SELECT c.type, c.status FROM components c WHERE ${where.join(' AND ')} GROUP BY 1, 2)
     SELECT array(SELECT DISTINCT type FROM pairs WHERE type IS NOT NULL ORDER BY 1) AS types,
       array(SELECT DISTINCT status FROM pairs) AS statuses,
       array(SELECT DISTINCT t.name FROM teams t
             WHERE t.deleted_at IS NULL AND EXISTS (
               SELECT 1 FROM team_components tc JOIN components c ON c.id = tc.component_id
               WHERE tc.team_id = t.id AND ${where.join(' AND ')})
             ORDER BY 1) AS teams`,
    sql.values,
  );
  const r = rows[0];
  const healthStatuses = (r.statuses as ComponentStatus[]).sort(
    (a, b) => (TOPOLOGY_HEALTH_RANK[b] ?? 0) - (TOPOLOGY_HEALTH_RANK[a] ?? 0) || a.localeCompare(b),
  );
  return { teams: r.teams, types: r.types, healthStatuses };
}
