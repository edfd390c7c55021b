/**
 * What an agent pushes (POST /api/agent/push): rows of the engines' tables, each stamped with the
 * agent's id and upserted by its key, so a push retried after a lost answer changes nothing.
 * Tables go in dependency order (a canary before its checks, a check before its statuses, a
 * config item before its changes), all in one transaction: a push is stored whole or not at all.
 *
 * Ownership: a row of a table with agent_id belongs to the agent whose id it carries; a row
 * without one (statuses, changes, analysis, relationships) to the agent owning its parent. A push
 * naming another agent, or touching a row or parent another agent owns, is refused whole (403).
 */
import { z } from 'zod';
import { isUuid, playbookActionReportSchema, uuidField, type PlaybookActionReport } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';
import { reportAgentActions } from '../playbooks/index.ts';

type ColType = 'uuid' | 'text' | 'jsonb' | 'timestamptz' | 'int' | 'bigint' | 'bool' | 'numeric';

interface Col {
  type: ColType;
  /** SQL for an absent or null value of a NOT NULL column with a default */
  fallback?: string;
}

interface Parent {
  /** column of the pushed row */
  column: string;
  table: 'canaries' | 'checks' | 'config_items' | 'config_scrapers' | 'topologies' | 'components';
  /** a null is allowed (an optional link) */
  optional?: boolean;
}

interface TableSpec {
  table: string;
  /** the conflict target: what makes a retried row the same row */
  key: string[];
  /** the table has agent_id: each row is stamped with the pushing agent */
  stamped: boolean;
  cols: Record<string, Col>;
  required: string[];
  parents: Parent[];
}

const t = (type: ColType, fallback?: string): Col => ({ type, fallback });
const uuid = t('uuid');
const text = t('text');
const json = t('jsonb');
const time = t('timestamptz');

/** In dependency order: a table's parents come before it. */
const PUSH_TABLES: readonly TableSpec[] = [
  {
    table: 'topologies',
    key: ['id'],
    stamped: true,
    cols: {
      id: uuid,
      name: text,
      namespace: t('text', `'default'`),
      icon: text,
      labels: t('jsonb', `'{}'`),
      spec: t('jsonb', `'{}'`),
      schedule: text,
      source: t('text', `'agent'`),
      deleted_at: time,
    },
    required: ['id', 'name'],
    parents: [],
  },
  {
    table: 'canaries',
    key: ['id'],
    stamped: true,
    cols: {
      id: uuid,
      name: text,
      namespace: t('text', `'default'`),
      icon: text,
      labels: t('jsonb', `'{}'`),
      spec: t('jsonb', `'{}'`),
      schedule: text,
      source: t('text', `'agent'`),
      deleted_at: time,
    },
    required: ['id', 'name'],
    parents: [],
  },
  {
    table: 'checks',
    key: ['id'],
    stamped: true,
    cols: {
      id: uuid,
      canary_id: uuid,
      name: text,
      namespace: t('text', `'default'`),
      description: text,
      type: text,
      icon: text,
      endpoint: text,
      owner: text,
      labels: t('jsonb', `'{}'`),
      spec: t('jsonb', `'{}'`),
      severity: t('text', `'info'`),
      status: text,
      last_runtime: time,
      next_runtime: time,
      last_transition_time: time,
      deleted_at: time,
    },
    required: ['id', 'canary_id', 'name', 'type'],
    parents: [{ column: 'canary_id', table: 'canaries' }],
  },
  {
    table: 'check_statuses',
    key: ['check_id', 'time'],
    stamped: false,
    cols: {
      check_id: uuid,
      time: time,
      duration: t('int', '0'),
      status: t('bool'),
      invalid: t('bool', 'false'),
      message: text,
      error: text,
      detail: json,
    },
    required: ['check_id', 'time', 'status'],
    parents: [{ column: 'check_id', table: 'checks' }],
  },
  {
    table: 'config_items',
    key: ['id'],
    stamped: true,
    cols: {
      id: uuid,
      scraper_id: uuid,
      parent_id: uuid,
      path: text,
      external_id: text,
      type: text,
      config_class: text,
      name: text,
      description: text,
      source: text,
      format: t('text', `'json'`),
      config: json,
      status: text,
      health: text,
      ready: t('bool'),
      labels: t('jsonb', `'{}'`),
      tags: t('jsonb', `'{}'`),
      properties: json,
      last_scraped_time: time,
      delete_reason: text,
      deleted_at: time,
      // when the item last changed on the agent: the catalog events' ids (publishCatalogEvents)
      updated_at: t('timestamptz', 'now()'),
    },
    required: ['id', 'type', 'config_class', 'name'],
    parents: [
      { column: 'scraper_id', table: 'config_scrapers', optional: true },
      { column: 'parent_id', table: 'config_items', optional: true },
    ],
  },
  {
    table: 'config_changes',
    key: ['id'],
    stamped: false,
    cols: {
      id: uuid,
      config_id: uuid,
      external_change_id: text,
      change_type: text,
      severity: text,
      source: text,
      summary: text,
      details: json,
      patches: json,
      diff: text,
      fingerprint: text,
      count: t('int', '1'),
      first_observed: t('timestamptz', 'now()'),
      created_at: t('timestamptz', 'now()'),
      external_created_by: text,
    },
    required: ['id', 'config_id', 'change_type'],
    parents: [{ column: 'config_id', table: 'config_items' }],
  },
  {
    table: 'config_analysis',
    key: ['id'],
    stamped: false,
    cols: {
      id: uuid,
      config_id: uuid,
      analyzer: text,
      analysis_type: text,
      severity: t('text', `'info'`),
      status: t('text', `'open'`),
      message: text,
      summary: text,
      analysis: json,
      source: text,
      first_observed: t('timestamptz', 'now()'),
      last_observed: t('timestamptz', 'now()'),
    },
    required: ['id', 'config_id', 'analyzer', 'analysis_type'],
    parents: [{ column: 'config_id', table: 'config_items' }],
  },
  {
    table: 'config_relationships',
    key: ['config_id', 'related_id', 'selector_id'],
    stamped: false,
    cols: {
      config_id: uuid,
      related_id: uuid,
      relation: t('text', `''`),
      selector_id: t('text', `''`),
      deleted_at: time,
    },
    required: ['config_id', 'related_id'],
    parents: [
      { column: 'config_id', table: 'config_items' },
      { column: 'related_id', table: 'config_items' },
    ],
  },
  {
    table: 'components',
    key: ['id'],
    stamped: true,
    cols: {
      id: uuid,
      topology_id: uuid,
      parent_id: uuid,
      path: t('text', `''`),
      external_id: text,
      name: text,
      title: text,
      type: text,
      icon: text,
      description: text,
      owner: text,
      lifecycle: text,
      tooltip: text,
      labels: t('jsonb', `'{}'`),
      properties: t('jsonb', `'[]'`),
      logs: t('jsonb', `'[]'`),
      summary: t('jsonb', `'{}'`),
      status: t('text', `'unknown'`),
      status_reason: text,
      hidden: t('bool', 'false'),
      deleted_at: time,
    },
    required: ['id', 'name'],
    parents: [
      { column: 'topology_id', table: 'topologies', optional: true },
      { column: 'parent_id', table: 'components', optional: true },
    ],
  },
  {
    table: 'job_history',
    key: ['id'],
    stamped: true,
    cols: {
      id: uuid,
      name: text,
      resource_type: text,
      resource_id: text,
      hostname: text,
      status: t('text', `'RUNNING'`),
      success_count: t('int', '0'),
      error_count: t('int', '0'),
      duration_millis: t('bigint'),
      details: json,
      time_start: t('timestamptz', 'now()'),
      time_end: time,
    },
    required: ['id', 'name'],
    parents: [],
  },
];

type PushTable = (typeof PUSH_TABLES)[number]['table'];

/** The columns a push carries for `table` (agent mode selects exactly these). */
export function pushColumns(table: string): string[] {
  const spec = PUSH_TABLES.find((s) => s.table === table);
  if (!spec) throw new Error(`${table} is not pushed`);
  return Object.keys(spec.cols);
}

/** Text fields are long enough for a config document's summary, not for abuse. */
const MAX_TEXT = 64 * 1024;

function fieldSchema(col: Col, name: string): z.ZodType {
  switch (col.type) {
    case 'uuid':
      return uuidField(name);
    case 'text':
      return z.string().max(MAX_TEXT);
    case 'jsonb':
      return z.unknown();
    case 'timestamptz':
      return z.string().refine((s) => !Number.isNaN(Date.parse(s)), `${name} must be a date and time`);
    case 'int':
      return z
        .number()
        .int()
        .min(-(2 ** 31))
        .max(2 ** 31 - 1);
    case 'bigint':
      return z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
    case 'bool':
      return z.boolean();
    case 'numeric':
      return z.number();
  }
}

/** One row of a table: known columns only; agent_id may be given (it must be the pusher's). */
function rowSchema(spec: TableSpec): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, col] of Object.entries(spec.cols)) {
    const f = fieldSchema(col, name);
    shape[name] = spec.required.includes(name) ? f : f.nullish();
  }
  if (spec.stamped) shape.agent_id = uuidField('agent_id').optional();
  return z.strictObject(shape) as unknown as z.ZodType<Record<string, unknown>>;
}

export function pushBodySchema(maxRows: number) {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of PUSH_TABLES) shape[spec.table] = z.array(rowSchema(spec)).max(maxRows).optional();
  // results of playbook actions the agent took (GET /api/agent/playbook/actions)
  shape.playbook_run_actions = z.array(playbookActionReportSchema).max(maxRows).optional();
  return z
    .strictObject(shape)
    .refine(
      (body) =>
        Object.values(body).reduce((n: number, rows) => n + ((rows as unknown[] | undefined)?.length ?? 0), 0) <=
        maxRows,
      `a push carries at most ${maxRows} rows: send the rest in another push`,
    ) as unknown as z.ZodType<Partial<Record<PushTable, Record<string, unknown>[]>>>;
}

/** A refusal of the push: status and a message that names the table, never the database's words. */
export class PushRefused extends Error {
  constructor(
    readonly statusCode: 403 | 400,
    message: string,
  ) {
    super(message);
  }
}

const ident = (s: string) => `"${s}"`;

/** INSERT ... SELECT FROM jsonb_to_recordset: one statement per table, however many rows. */
function upsertSql(spec: TableSpec): string {
  const names = Object.keys(spec.cols);
  const recordType = names.map(
    (n) =>
      `${ident(n)} ${spec.cols[n].type === 'int' ? 'integer' : spec.cols[n].type === 'bool' ? 'boolean' : spec.cols[n].type}`,
  );
  const values = names.map((n) => {
    const c = spec.cols[n];
    return c.fallback ? `coalesce(x.${ident(n)}, ${c.fallback})` : `x.${ident(n)}`;
  });
  const cols = [...(spec.stamped ? ['agent_id'] : []), ...names];
  const select = [...(spec.stamped ? ['$2::uuid'] : []), ...values];
  const updatable = names.filter((n) => !spec.key.includes(n) && n !== 'created_at');
  const onConflict = updatable.length
    ? `DO UPDATE SET ${updatable.map((n) => `${ident(n)} = EXCLUDED.${ident(n)}`).join(', ')}` +
      (spec.stamped ? ` WHERE ${ident(spec.table)}.agent_id = EXCLUDED.agent_id` : '')
    : 'DO NOTHING';
  return `INSERT INTO ${ident(spec.table)} (${cols.map(ident).join(', ')})
    SELECT ${select.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${recordType.join(', ')})
    ON CONFLICT (${spec.key.map(ident).join(', ')}) ${onConflict}`;
}

const SQL = new Map(PUSH_TABLES.map((s) => [s.table, upsertSql(s)]));

/** Parents another agent owns, and parents that exist nowhere. */
async function checkParents(tx: Queryable, agentId: string, spec: TableSpec, rows: Record<string, unknown>[]) {
  for (const p of spec.parents) {
    // a parent in the same table and the same push (a pod and its namespace) is written with it
    const own = p.table === spec.table ? new Set(rows.map((r) => r.id)) : new Set();
    const ids = [...new Set(rows.map((r) => r[p.column]).filter(isUuid))].filter((id) => !own.has(id));
    if (rows.some((r) => r[p.column] == null) && !p.optional)
      throw new PushRefused(400, `${spec.table}: ${p.column} is required`);
    if (!ids.length) continue;
    const r = await tx.query<{ id: string; agent_id: string }>(
      `SELECT id::text, agent_id::text FROM ${ident(p.table)} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    if (r.rows.some((row) => row.agent_id !== agentId))
      throw new PushRefused(403, `${spec.table}: ${p.column} names a ${p.table} row of another agent`);
    if (r.rows.length < ids.length) {
      const known = new Set(r.rows.map((row) => row.id));
      const missing = ids.find((id) => !known.has(id));
      throw new PushRefused(400, `${spec.table}: ${p.column} ${missing} is unknown: push it first`);
    }
  }
}

export interface PushCounts {
  [table: string]: number;
}

/** Stores a validated push for `agentId`; answers how many rows each table received. */
export async function applyPush(
  tx: Queryable,
  agentId: string,
  body: Partial<Record<string, Record<string, unknown>[]>>,
): Promise<PushCounts> {
  // a row naming another agent is refused before anything is written
  for (const spec of PUSH_TABLES) {
    const rows = body[spec.table];
    if (rows?.some((r) => r.agent_id !== undefined && r.agent_id !== agentId))
      throw new PushRefused(403, `${spec.table}: rows of another agent cannot be pushed with this token`);
  }
  const counts: PushCounts = {};
  for (const spec of PUSH_TABLES) {
    const rows = body[spec.table];
    if (!rows?.length) continue;
    if (spec.stamped) {
      const ids = rows.map((r) => r.id as string);
      const foreign = await tx.query(
        `SELECT 1 FROM ${ident(spec.table)} WHERE id = ANY($1::uuid[]) AND agent_id IS DISTINCT FROM $2::uuid LIMIT 1`,
        [ids, agentId],
      );
      if (foreign.rows.length) throw new PushRefused(403, `${spec.table}: a row with this id belongs to another agent`);
    }
    // parents pushed in this same push are already written (dependency order)
    await checkParents(tx, agentId, spec, rows);
    const clean = spec.stamped ? rows.map(({ agent_id: _drop, ...r }) => r) : rows;
    // statuses this push adds (a retried push adds none): the runs that may flip their check
    const fresh = spec.table === 'check_statuses' ? await newStatuses(tx, clean) : null;
    // compared with the stored rows before they are replaced
    if (spec.table === 'config_items') await publishCatalogEvents(tx, agentId, clean, body.config_changes ?? []);
    try {
      await tx.query(SQL.get(spec.table)!, spec.stamped ? [JSON.stringify(clean), agentId] : [JSON.stringify(clean)]);
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === '21000') throw new PushRefused(400, `${spec.table}: the same row appears twice in one push`);
      if (code.startsWith('23') || code.startsWith('22'))
        throw new PushRefused(
          400,
          `${spec.table}: a row has a value the table does not accept (${constraintKind(code)})`,
        );
      throw err;
    }
    counts[spec.table] = rows.length;
    if (fresh) await publishTransitions(tx, agentId, fresh);
  }
  const reports = body.playbook_run_actions as PlaybookActionReport[] | undefined;
  if (reports?.length) {
    const r = await reportAgentActions(tx, agentId, reports);
    if (r.refused) throw new PushRefused(r.refused.status, r.refused.message);
    counts.playbook_run_actions = r.applied;
  }
  return counts;
}

/** The pushed statuses not stored yet, as jsonb text (check_id, time, status, message, error). */
async function newStatuses(tx: Queryable, rows: Record<string, unknown>[]): Promise<string> {
  const r = await tx.query<{ fresh: string | null }>(
    `SELECT jsonb_agg(x)::text AS fresh
       FROM jsonb_to_recordset($1::jsonb) AS x(check_id uuid, time timestamptz, status boolean, message text, error text)
      WHERE NOT EXISTS (SELECT 1 FROM check_statuses s WHERE s.check_id = x.check_id AND s.time = x.time)`,
    [JSON.stringify(rows)],
  );
  return r.rows[0].fresh ?? '[]';
}

/**
 * check.passed / check.failed for the new statuses that flip their check, as the local health
 * engine publishes them (health/record.ts): the previous run is the check's stored status just
 * before it, a first run counts only when it fails, and the event's resource id is
 * `<check id>/<run time>` in the same format, so incidents, notifications, playbook triggers and
 * topology see an agent's check flip like a local one. Only statuses this push added are looked
 * at, and publish_event() ignores a (name, resource id) it already has: a retried push, or the
 * same run pushed twice concurrently, publishes nothing more.
 */
async function publishTransitions(tx: Queryable, agentId: string, fresh: string): Promise<void> {
  if (fresh === '[]') return;
  await tx.query(
    `WITH f AS (
       SELECT x.*, CASE WHEN x.status THEN 'healthy' ELSE 'unhealthy' END AS now_status
         FROM jsonb_to_recordset($1::jsonb) AS x(check_id uuid, time timestamptz, status boolean, message text, error text)
     ), t AS (
       SELECT f.*, c.canary_id, c.name,
              (SELECT CASE WHEN p.status THEN 'healthy' ELSE 'unhealthy' END FROM check_statuses p
                WHERE p.check_id = f.check_id AND p.time < f.time ORDER BY p.time DESC LIMIT 1) AS previous
         FROM f JOIN checks c ON c.id = f.check_id
     )
     SELECT count(publish_event(CASE WHEN t.now_status = 'healthy' THEN 'check.passed' ELSE 'check.failed' END,
         t.check_id || '/' || to_char(t.time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         jsonb_build_object('check_id', t.check_id, 'canary_id', t.canary_id, 'name', t.name, 'status', t.now_status,
           'previous', t.previous, 'time', t.time, 'message', t.message, 'error', t.error, 'agent_id', $2::uuid)))
       FROM t
      WHERE t.previous IS DISTINCT FROM t.now_status AND NOT (t.previous IS NULL AND t.now_status = 'healthy')`,
    [fresh, agentId],
  );
}

/**
 * config.created / updated / deleted / <health> for the pushed items, as the catalog's ingest
 * publishes them for a local scrape (catalog/ingest.ts): created for an item new here, updated when
 * its body differs from the stored one (with the summary of the diff change pushed with it),
 * deleted when it becomes deleted, config.<health> when its health changes. Run before the upsert,
 * against the stored rows: a retried push finds them equal and publishes nothing. The ids are the
 * catalog's, stamped with the item's updated_at on the agent (the same for a resent row), so
 * publish_event() ignores the repeat of two concurrent pushes of one change: once, either way.
 */
async function publishCatalogEvents(
  tx: Queryable,
  agentId: string,
  rows: Record<string, unknown>[],
  changes: Record<string, unknown>[],
): Promise<void> {
  const summaries: Record<string, string> = {};
  for (const c of changes)
    if (c.change_type === 'diff' && typeof c.summary === 'string') summaries[c.config_id as string] = c.summary;
  await tx.query(
    `WITH x AS (
       SELECT x.*, (extract(epoch FROM coalesce(x.updated_at, now())) * 1000)::bigint::text AS stamp
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, type text, name text, config jsonb, health text,
           deleted_at timestamptz, updated_at timestamptz)
     ), j AS (
       SELECT x.*, o.id IS NULL AS is_new, o.config AS old_config, o.health AS old_health, o.deleted_at AS old_deleted
         FROM x LEFT JOIN config_items o ON o.id = x.id
     ), ev AS (
       SELECT 'config.created' AS name, j.id || '/created' AS rid,
              jsonb_build_object('id', j.id, 'type', j.type, 'name', j.name) AS props
         FROM j WHERE j.is_new
       UNION ALL
       SELECT 'config.updated', j.id || '/' || j.stamp,
              jsonb_strip_nulls(jsonb_build_object('id', j.id, 'type', j.type, 'name', j.name,
                'summary', $3::jsonb ->> j.id::text))
         FROM j WHERE NOT j.is_new AND j.old_config IS DISTINCT FROM j.config
       UNION ALL
       SELECT 'config.deleted', j.id || '/' || j.stamp, jsonb_build_object('id', j.id, 'type', j.type, 'name', j.name)
         FROM j WHERE NOT j.is_new AND j.deleted_at IS NOT NULL AND j.old_deleted IS NULL
       UNION ALL
       SELECT 'config.' || j.health, j.id || '/' || j.health || '/' || j.stamp,
              jsonb_build_object('id', j.id, 'health', j.health, 'previous', j.old_health)
         FROM j WHERE j.health IN ('healthy', 'unhealthy', 'warning', 'unknown')
          AND j.health IS DISTINCT FROM j.old_health
     )
     SELECT count(publish_event(ev.name, ev.rid, ev.props || jsonb_build_object('agent_id', $2::uuid))) FROM ev`,
    [JSON.stringify(rows), agentId, JSON.stringify(summaries)],
  );
}

function constraintKind(code: string): string {
  if (code === '23503') return 'it refers to a row that does not exist';
  if (code === '23514') return 'a value outside the allowed ones';
  if (code === '23502') return 'a required value is missing';
  if (code === '23505') return 'it duplicates another row';
  return 'a malformed value';
}
