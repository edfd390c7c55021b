/**
 * POST /api/catalog/summary: the catalog landing page (seed 002 sections 2.2, 3 "config
 * summary" and 7.1): items grouped by config_class and type (the default) or any other column,
 * label or tag, with the count, health counts, open insights per analysis type, changes and cost.
 * The page's group-by choices `analysis` (the item's open insight types) and `changed` (any
 * change in the changes window) are grouped here too, so the screen never groups on its own.
 */
import { z } from 'zod';
import { parseDuration, uuidField } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import {
  filterValue,
  includeExcludeSql,
  Params,
  parseIncludeExclude,
  parseTags,
  tagsSql,
  tagsValue,
} from './filters.ts';

const SUMMARY_DEFAULT_GROUP_BY = ['config_class', 'type'];
const COLUMNS = ['config_class', 'type', 'status', 'health', 'name'] as const;
const MONTH_MS = 30 * 86_400_000;

const groupKey = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:/-]+$/, {
    error: 'groupBy entries are column, label or tag names (letters, digits, _ . : / -)',
  });

const since = (field: string) =>
  z
    .string({ error: `${field} must be a duration such as '30d'` })
    .max(20)
    .transform((v, ctx) => {
      const ms = parseDuration(v.trim());
      if (ms === undefined || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a duration such as '30d', not '${v.slice(0, 20)}'` });
        return z.NEVER;
      }
      return ms;
    });

const labelMap = z.record(z.string().max(300), z.string().max(1000), {
  error: 'filter must be an object of label names and values',
});

export const summaryRequest = z.strictObject({
  groupBy: z
    .union(
      [
        // the URL's form: 'config_class,type'
        z
          .string()
          .min(1)
          .max(500)
          .regex(/^[A-Za-z0-9_.:/ -]+(,[A-Za-z0-9_.:/ -]+){0,4}$/, {
            error: 'groupBy takes at most 5 comma-separated column, label or tag names (letters, digits, _ . : / -)',
          }),
        z.array(groupKey).min(1).max(5, { error: 'groupBy takes at most 5 keys' }),
      ],
      {
        error: 'groupBy must be a list of column, label or tag names',
      },
    )
    .optional(),
  /** include deleted items (the 'Hide Deleted Catalog' preference off) */
  deleted: z.boolean({ error: 'deleted must be true or false' }).optional(),
  /** labels, key = value (all must hold) */
  filter: labelMap.optional(),
  /** labels: an object as filter, or `key____value` entries as tags (':-1' excludes) */
  labels: tagsValue,
  /** the items of one agent */
  agent_id: uuidField('agent_id').optional(),
  tags: tagsValue,
  health: filterValue,
  status: filterValue,
  configType: filterValue,
  type: filterValue,
  search: z.string().max(200).optional(),
  changes: z.strictObject({ since: since('changes.since') }).optional(),
  analysis: z.strictObject({ since: since('analysis.since') }).optional(),
  cost: z.enum(['1d', '7d', '30d'], { error: 'cost must be one of 1d, 7d, 30d' }).optional(),
});
export type SummaryRequest = z.output<typeof summaryRequest>;

/**
 * The SQL expression of one group key (answered under the key's name). `changed` is true when
 * the item has changes in the window, `analysis` the item's open insight types ('reliability,
 * security', NULL for none).
 */
function groupExpr(key: string, sql: Params, analysisSince: string): string {
  if ((COLUMNS as readonly string[]).includes(key)) return `ci.${key}`;
  if (key === 'changed') return `(coalesce(ch.changes, 0) > 0)`;
  if (key === 'analysis')
    return `(SELECT string_agg(DISTINCT ca.analysis_type, ', ' ORDER BY ca.analysis_type) FROM config_analysis ca
             WHERE ca.config_id = ci.id AND ca.status = 'open' ${analysisSince})`;
  if (key === 'namespace') return `ci.tags ->> 'namespace'`;
  if (key.startsWith('labels.')) return `ci.labels ->> ${sql.p(key.slice(7))}::text`;
  if (key.startsWith('tags.')) return `ci.tags ->> ${sql.p(key.slice(5))}::text`;
  return `ci.tags ->> ${sql.p(key)}::text`;
}

export async function catalogSummary(db: Db, req: SummaryRequest): Promise<Record<string, unknown>[]> {
  const groupBy =
    req.groupBy === undefined
      ? SUMMARY_DEFAULT_GROUP_BY
      : typeof req.groupBy === 'string'
        ? req.groupBy.split(',')
        : req.groupBy;
  const keys = [...new Set(groupBy.map((k) => k.trim()).filter(Boolean))];
  const sql = new Params();
  const where: string[] = [];
  if (!req.deleted) where.push('ci.deleted_at IS NULL');
  where.push(...includeExcludeSql(sql, 'ci.health', parseIncludeExclude(req.health), 'unknown'));
  where.push(...includeExcludeSql(sql, 'ci.status', parseIncludeExclude(req.status)));
  where.push(...includeExcludeSql(sql, 'ci.type', parseIncludeExclude(req.configType ?? req.type)));
  if (req.filter && Object.keys(req.filter).length)
    where.push(`ci.labels @> ${sql.p(JSON.stringify(req.filter))}::jsonb`);
  where.push(...tagsSql(sql, 'ci.labels', parseTags(req.labels)));
  where.push(...tagsSql(sql, 'ci.tags', parseTags(req.tags)));
  if (req.agent_id) where.push(`ci.agent_id = ${sql.p(req.agent_id)}::uuid`);
  if (req.search?.trim()) {
    const s = sql.p(`%${req.search.trim().replace(/[\\%_]/g, '\\$&')}%`);
    where.push(
      `(ci.name ILIKE ${s} OR ci.type ILIKE ${s} OR ci.description ILIKE ${s} OR ci.tags ->> 'namespace' ILIKE ${s})`,
    );
  }
  // 30 days (the seeds' request) read the counters (catalog/sql/31-catalog-graph.sql); another
  // window counts the changes themselves.
  const changesMs = req.changes?.since ?? MONTH_MS;
  const changes =
    changesMs === MONTH_MS
      ? `config_changes_30d`
      : `(SELECT config_id, count(*) AS changes FROM config_changes WHERE created_at > now() - ${sql.p(changesMs)} * interval '1 millisecond' GROUP BY config_id)`;
  const analysisSince = req.analysis?.since
    ? `AND ca.last_observed > now() - ${sql.p(req.analysis.since)} * interval '1 millisecond'`
    : '';
  const exprs = keys.map((k) => groupExpr(k, sql, analysisSince));
  const g = exprs.map((e, i) => `${e} AS g${i}`).join(', ');
  const gCols = keys.map((_, i) => `g${i}`).join(', ');
  const join = keys.map((_, i) => `b.g${i} IS NOT DISTINCT FROM a.g${i}`).join(' AND ');
  const text = `
    WITH items AS MATERIALIZED (
      SELECT ci.id, ${g}, ci.health, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
        coalesce(ch.changes, 0) AS changes
      FROM config_items ci LEFT JOIN ${changes} ch ON ch.config_id = ci.id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ),
    base AS (
      SELECT ${gCols}, count(*) AS count,
        count(*) FILTER (WHERE i.health = 'healthy') AS healthy,
        count(*) FILTER (WHERE i.health = 'unhealthy') AS unhealthy,
        count(*) FILTER (WHERE i.health = 'warning') AS warning,
        count(*) FILTER (WHERE i.health = 'unknown' OR i.health IS NULL) AS unknown,
        coalesce(sum(i.changes), 0) AS changes,
        sum(i.cost_per_minute) AS cost_per_minute, sum(i.cost_total_1d) AS cost_total_1d,
        sum(i.cost_total_7d) AS cost_total_7d, sum(i.cost_total_30d) AS cost_total_30d
      FROM items i
      GROUP BY ${gCols}
    ),
    an AS (
      SELECT ${gCols}, jsonb_object_agg(x.analysis_type, x.n) AS analysis FROM (
        SELECT ${gCols}, ca.analysis_type, count(*) AS n
        FROM items i JOIN config_analysis ca ON ca.config_id = i.id AND ca.status = 'open' ${analysisSince}
        GROUP BY ${gCols}, ca.analysis_type
      ) x GROUP BY ${gCols}
    )
    SELECT b.*, a.analysis FROM base b LEFT JOIN an a ON ${join}
    ORDER BY ${keys.map((_, i) => `b.g${i} NULLS LAST`).join(', ')}`;
  const { rows } = await db.query<Record<string, unknown>>(text, sql.values);
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => {
    const row: Record<string, unknown> = {};
    keys.forEach((k, i) => (row[k] = r[`g${i}`] ?? null));
    const health: Record<string, number> = {};
    for (const h of ['healthy', 'unhealthy', 'warning', 'unknown']) if (Number(r[h]) > 0) health[h] = Number(r[h]);
    return {
      ...row,
      count: Number(r.count),
      health,
      analysis: r.analysis ?? {},
      changes: Number(r.changes),
      cost_per_minute: num(r.cost_per_minute),
      cost_total_1d: num(r.cost_total_1d),
      cost_total_7d: num(r.cost_total_7d),
      cost_total_30d: num(r.cost_total_30d),
    };
  });
}
