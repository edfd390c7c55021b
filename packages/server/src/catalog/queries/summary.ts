/**
 * POST /api/catalog/summary: the catalog landing page (seed 002 sections 2.2, 3 "config
 * summary" and 7.1): items grouped by config_class and type (the default) or any other column,
 * label or tag, with the count, health counts, open insights per analysis type, changes and cost.
 */
import { z } from 'zod';
import { parseDuration } from '@watchdeck/core';
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
    .union([groupKey, z.array(groupKey).min(1).max(5, { error: 'groupBy takes at most 5 keys' })], {
      error: 'groupBy must be a list of column, label or tag names',
    })
    .optional(),
  /** include deleted items (the 'Hide Deleted Catalog' preference off) */
  deleted: z.boolean({ error: 'deleted must be true or false' }).optional(),
  /** labels, key = value */
  filter: labelMap.optional(),
  labels: labelMap.optional(),
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

/** The SQL expression of one group key and the name it is answered under. */
function groupExpr(key: string, sql: Params): string {
  if ((COLUMNS as readonly string[]).includes(key)) return `ci.${key}`;
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
  const labels = { ...req.labels, ...req.filter };
  if (Object.keys(labels).length) where.push(`ci.labels @> ${sql.p(JSON.stringify(labels))}::jsonb`);
  where.push(...tagsSql(sql, 'ci.tags', parseTags(req.tags)));
  if (req.search?.trim()) {
    const s = sql.p(`%${req.search.trim().replace(/[\\%_]/g, '\\$&')}%`);
    where.push(
      `(ci.name ILIKE ${s} OR ci.type ILIKE ${s} OR ci.description ILIKE ${s} OR ci.tags ->> 'namespace' ILIKE ${s})`,
    );
  }
  const exprs = keys.map((k) => groupExpr(k, sql));
  const g = exprs.map((e, i) => `${e} AS g${i}`).join(', ');
  const gCols = keys.map((_, i) => `g${i}`).join(', ');

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
  const join = keys.map((_, i) => `b.g${i} IS NOT DISTINCT FROM a.g${i}`).join(' AND ');
  const text = `
    WITH items AS MATERIALIZED (
      SELECT ci.id, ${g}, ci.health, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d
      FROM config_items ci ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ),
    base AS (
      SELECT ${gCols}, count(*) AS count,
        count(*) FILTER (WHERE i.health = 'healthy') AS healthy,
        count(*) FILTER (WHERE i.health = 'unhealthy') AS unhealthy,
        count(*) FILTER (WHERE i.health = 'warning') AS warning,
        count(*) FILTER (WHERE i.health = 'unknown' OR i.health IS NULL) AS unknown,
        coalesce(sum(ch.changes), 0) AS changes,
        sum(i.cost_per_minute) AS cost_per_minute, sum(i.cost_total_1d) AS cost_total_1d,
        sum(i.cost_total_7d) AS cost_total_7d, sum(i.cost_total_30d) AS cost_total_30d
      FROM items i LEFT JOIN ${changes} ch ON ch.config_id = i.id
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
