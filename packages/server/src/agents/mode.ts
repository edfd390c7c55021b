/**
 * Agent mode: `watchdeck agent --upstream URL --token T` (or WATCHDECK_UPSTREAM and
 * WATCHDECK_AGENT_TOKEN). This process runs the server's engines on its own database for the
 * canaries, scrapers and topologies the upstream assigns to it, pushes what they produce there,
 * and serves nothing.
 *
 *   pull  every PULL_MS: the assigned resources become this database's own (same ids), so the
 *         local health, catalog and topology engines run them; ones no longer assigned are
 *         soft-deleted here.
 *   push  every PUSH_MS: the checks of those canaries and the check_statuses after the cursor
 *         (agent_push_cursor), in batches; then the config items, changes, analysis,
 *         relationships, components and job history behind a cursor each (agent_push_cursors).
 *         A cursor moves only once the upstream has stored a batch, so the tables themselves are
 *         the durable outbox (upstream down, restart: nothing lost; the upstream's upserts make a
 *         resent batch harmless).
 *   ping  every PING_MS: online on the upstream's agents list.
 *   actions  a long-poll after another: a playbook action naming this agent in runsOn becomes a
 *         local run with the action's id (playbooks' runHandedAction), which the local runner runs;
 *         its result goes up with the next push (agent_playbook_actions remembers what is owed).
 *
 * Failures back off exponentially (1 s doubling to 60 s). A token the upstream refuses (401, or
 * 404: no agent behind it) stops the agent with a message saying so.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  AGENT_PARKED_REPORT_MAX,
  AGENT_PARKED_ROW_MAX_BYTES,
  AGENT_PUSH_MAX_BYTES,
  playbookHandedActionSchema,
  type AgentParkedRequest,
  type AgentParkedRowReport,
} from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { handedActionReports, runHandedAction } from '../playbooks/index.ts';
import { runJob } from '../jobs/index.ts';
import { pushColumns } from './push.ts';

const PULL_MS = 30_000;
const PUSH_MS = 5_000;
const PING_MS = 30_000;
const BATCH = 5_000;
const MAX_BACKOFF_MS = 60_000;
/** How long each playbook-action long-poll waits upstream (its maximum). */
const ACTION_POLL_S = 30;
/** Rows younger than this may still have company committing with an earlier timestamp. */
const SETTLE = `interval '2 seconds'`;
/** No check run lasts longer: bounds the scan through check_statuses_time_idx. */
const LONGEST_RUN = `interval '1 hour'`;

class TokenRefused extends Error {}
/** The upstream refused a push for good: the same rows would be refused again. */
class RefusedForGood extends Error {}
/** 4xx answers that may pass on a retry (or, 401/404, stop the agent): everything else 4xx is final. */
const TRANSIENT_4XX = new Set([401, 403, 404, 408, 429]);
/** The job that records parked rows (also pushed, so the upstream's job history shows it). */
const PARKED_JOB = 'AgentPushParked';

/**
 * A row's parents in the push, by table: a row whose parent was parked is parked with it (its
 * push would only be refused for the unknown parent).
 */
const PARENTS: Record<string, [column: string, table: string][]> = {
  check_statuses: [['check_id', 'checks']],
  config_items: [['parent_id', 'config_items']],
  config_changes: [['config_id', 'config_items']],
  config_analysis: [['config_id', 'config_items']],
  config_relationships: [
    ['config_id', 'config_items'],
    ['related_id', 'config_items'],
  ],
  components: [['parent_id', 'components']],
};

/** The columns that make a pushed row the same row (the upstream's conflict keys); else id. */
const KEYS: Record<string, string[]> = {
  check_statuses: ['check_id', 'time'],
  config_relationships: ['config_id', 'related_id', 'selector_id'],
};
const keyColumns = (tbl: string) => KEYS[tbl] ?? ['id'];
/** A row's key as text (dates as JSON writes them, as migration 0420 reads them from the copy). */
function keyOf(tbl: string, row: Record<string, unknown>): string {
  return keyColumns(tbl)
    .map((c) => {
      const v = row[c];
      return v instanceof Date ? v.toISOString() : String(v ?? '');
    })
    .join('/');
}
/** Tables whose current local row a retry sends (a later version than the parked copy). */
const RELOADABLE = new Set([
  'checks',
  'check_statuses',
  'config_items',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'components',
  'job_history',
]);

/**
 * The copy of a parked row the upstream keeps for its page: the row itself when small, else its
 * long texts and large objects cut down, else only its key (marked `_trimmed`).
 */
function trimmedRow(tbl: string, row: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(row).length <= AGENT_PARKED_ROW_MAX_BYTES) return row;
  const cut: Record<string, unknown> = { _trimmed: true };
  for (const [k, v] of Object.entries(row)) {
    const json = JSON.stringify(v) ?? '';
    if (typeof v === 'string' && v.length > 512) cut[k] = `${v.slice(0, 512)}… (${v.length} characters)`;
    else if (v && typeof v === 'object' && !(v instanceof Date) && json.length > 1024)
      cut[k] = `(${json.length} characters of JSON)`;
    else cut[k] = v;
  }
  if (JSON.stringify(cut).length <= AGENT_PARKED_ROW_MAX_BYTES) return cut;
  return Object.fromEntries([['_trimmed', true], ...keyColumns(tbl).map((c) => [c, row[c]])]);
}

/**
 * A check row without what each run changes, as JSON with keys sorted at every level (jsonb
 * reorders keys): a check compared with its parked copy.
 */
function checkDefinition(row: Record<string, unknown>): string {
  const { status: _s, last_runtime: _l, next_runtime: _n, last_transition_time: _t, ...def } = row;
  return JSON.stringify(JSON.parse(JSON.stringify(def)), (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** What a pull answers, and the local table each kind is kept in (same ids, source 'upstream'). */
type PulledTable = 'canaries' | 'scrapers' | 'topologies';
const PULLED: readonly [PulledTable, string][] = [
  ['canaries', 'canaries'],
  ['scrapers', 'config_scrapers'],
  ['topologies', 'topologies'],
];

/** Rows of each outbox table a push carries at most (six tables stay under the push's row limit). */
const OUTBOX_BATCH = 2_000;
/** A push's rows stay under half the upstream's byte limit (room for the envelope and the checks). */
const PUSH_BYTES = AGENT_PUSH_MAX_BYTES / 2;
const UPSTREAM_SCRAPERS = `SELECT id FROM config_scrapers WHERE source = 'upstream' AND deleted_at IS NULL`;
const UPSTREAM_ITEMS = `SELECT id FROM config_items WHERE scraper_id IN (${UPSTREAM_SCRAPERS})`;

/**
 * The outbox tables after check_statuses, in push order (parents first): which of their rows
 * belong to the pulled scrapers and topologies, and the change time and key their cursor follows.
 * Each change time moves on every write the upstream must see: config_items.updated_at on a real
 * change or a deletion (catalog's trigger), a folded change's created_at, the updated_at triggers
 * of analysis, relationships and components, a finished run's time_end.
 */
const OUTBOX: readonly { table: string; scope: string; at: string; key: string }[] = [
  { table: 'config_items', scope: `t.scraper_id IN (${UPSTREAM_SCRAPERS})`, at: 't.updated_at', key: 't.id::text' },
  { table: 'config_changes', scope: `t.config_id IN (${UPSTREAM_ITEMS})`, at: 't.created_at', key: 't.id::text' },
  { table: 'config_analysis', scope: `t.config_id IN (${UPSTREAM_ITEMS})`, at: 't.updated_at', key: 't.id::text' },
  {
    table: 'config_relationships',
    scope: `t.config_id IN (${UPSTREAM_ITEMS}) AND t.related_id IN (${UPSTREAM_ITEMS})`,
    at: 't.updated_at',
    key: `t.config_id::text || '/' || t.related_id::text || '/' || t.selector_id`,
  },
  {
    table: 'components',
    scope: `t.topology_id IN (SELECT id FROM topologies WHERE source = 'upstream' AND deleted_at IS NULL)`,
    at: 't.updated_at',
    key: 't.id::text',
  },
  {
    table: 'job_history',
    scope: `(t.resource_id IN (SELECT id::text FROM canaries WHERE source = 'upstream'
              UNION ALL SELECT id::text FROM config_scrapers WHERE source = 'upstream'
              UNION ALL SELECT id::text FROM topologies WHERE source = 'upstream') OR t.name = '${PARKED_JOB}')`,
    at: 't.time_end',
    key: 't.id::text',
  },
];

export interface AgentModeOptions {
  db: Db;
  upstream: string;
  token: string;
  log: FastifyBaseLogger;
  /** reschedules the local engines after the assigned canaries changed */
  reload: () => Promise<void>;
  version: string;
  hostname: string;
  /** called once with the reason when the agent must stop (a refused token) */
  onFatal: (err: Error) => void;
}

interface Cursor {
  created_at: string;
  check_id: string;
  time: string;
}

export function startAgentMode(opts: AgentModeOptions): { stop(): void; pushNow(): Promise<number> } {
  const { db, log, token } = opts;
  const upstream = opts.upstream.replace(/\/+$/, '');
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${upstream}/api/agent/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status === 401 || res.status === 404)
      throw new TokenRefused(
        `The upstream ${upstream} refused this agent's token (${res.status}): the agent was deleted or its token revoked. ` +
          'Create the agent again on the upstream and start this one with the new token.',
      );
    if (res.status >= 400 && res.status < 500 && !TRANSIENT_4XX.has(res.status))
      throw new RefusedForGood(`${res.status} ${text.slice(0, 500)}`);
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async function pull(): Promise<void> {
    const pulled = await call<Record<PulledTable, Record<string, unknown>[]>>('GET', 'pull');
    await db.transaction(async (tx) => {
      for (const [key, table] of PULLED) {
        const rows = pulled[key] ?? [];
        for (const c of rows) {
          await tx.query(
            `INSERT INTO ${table} (id, name, namespace, labels, spec, schedule, source)
             VALUES ($1, $2, $3, $4, $5, $6, 'upstream')
             ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, namespace = EXCLUDED.namespace,
               labels = EXCLUDED.labels, spec = EXCLUDED.spec, schedule = EXCLUDED.schedule, deleted_at = NULL
             WHERE (${table}.name, ${table}.namespace, ${table}.labels, ${table}.spec, ${table}.schedule, ${table}.deleted_at)
               IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.namespace, EXCLUDED.labels, EXCLUDED.spec, EXCLUDED.schedule, NULL)`,
            [
              c.id,
              c.name,
              c.namespace ?? 'default',
              JSON.stringify(c.labels ?? {}),
              JSON.stringify(c.spec ?? {}),
              c.schedule ?? null,
            ],
          );
        }
        await tx.query(
          `UPDATE ${table} SET deleted_at = now() WHERE source = 'upstream' AND deleted_at IS NULL AND NOT (id = ANY ($1::uuid[]))`,
          [rows.map((c) => c.id as string)],
        );
      }
    });
    await opts.reload();
  }

  async function readCursor(): Promise<Cursor> {
    await db.query(`INSERT INTO agent_push_cursor (upstream) VALUES ($1) ON CONFLICT (upstream) DO NOTHING`, [
      upstream,
    ]);
    const r = await db.query<Cursor>(
      `SELECT created_at::text AS created_at, check_id::text AS check_id, time::text AS time
         FROM agent_push_cursor WHERE upstream = $1`,
      [upstream],
    );
    return r.rows[0];
  }

  /** One batch: the checks of the pulled canaries and the statuses after the cursor. Rows pushed. */
  async function pushBatch(): Promise<number> {
    const cur = await readCursor();
    const statuses = await db.query<Record<string, unknown> & { created_at: string; check_id: string; time: string }>(
      `SELECT s.check_id, s.time, s.duration, s.status, s.invalid, s.message, s.error, s.detail,
              s.created_at::text AS created_at, s.time::text AS time_text
         FROM check_statuses s JOIN checks c ON c.id = s.check_id
         JOIN canaries ca ON ca.id = c.canary_id AND ca.source = 'upstream' AND ca.deleted_at IS NULL
        WHERE s.time > $1::timestamptz - ${LONGEST_RUN}
          AND (s.created_at, s.check_id, s.time) > ($1::timestamptz, $2::uuid, $3::timestamptz)
          AND s.created_at < now() - ${SETTLE}
        ORDER BY s.created_at, s.check_id, s.time LIMIT ${BATCH}`,
      [cur.created_at, cur.check_id, cur.time],
    );
    const checks = await db.query<Record<string, unknown>>(
      `SELECT c.id, c.canary_id, c.name, c.namespace, c.description, c.type, c.icon, c.endpoint, c.owner, c.labels,
              c.spec, c.severity, c.status, c.last_runtime, c.next_runtime, c.last_transition_time, c.deleted_at
         FROM checks c JOIN canaries ca ON ca.id = c.canary_id AND ca.source = 'upstream' AND ca.deleted_at IS NULL`,
    );
    const rows = statuses.rows;
    if (!rows.length && !checks.rows.length) return 0;
    // a check parked before stays out until its definition changes (it would only be parked again)
    const parked = new Set(
      (
        await db.query<{ row: Record<string, unknown> }>(
          `SELECT row FROM agent_push_parked
            WHERE upstream = $1 AND tbl = 'checks' AND (resolution IS NULL OR resolution = 'discarded')`,
          [upstream],
        )
      ).rows.map((p) => checkDefinition(p.row)),
    );
    await pushOrPark({
      checks: parked.size ? checks.rows.filter((c) => !parked.has(checkDefinition(c))) : checks.rows,
      check_statuses: rows.map(({ created_at: _c, time_text: _t, ...s }) => s),
    });
    if (rows.length) {
      const last = rows[rows.length - 1];
      await db.query(
        `UPDATE agent_push_cursor SET created_at = $2, check_id = $3, time = $4, pushed = pushed + $5
          WHERE upstream = $1`,
        [upstream, last.created_at, last.check_id, last.time_text, rows.length],
      );
    }
    return rows.length;
  }

  /**
   * One push of what the pulled scrapers and topologies produced: each outbox table's rows after
   * its cursor, in dependency order. When a table has more than a batch waiting, the tables after
   * it wait for the next push (their rows may need its later rows as parents). The cursors move
   * once the upstream stored the push. Answers the rows pushed and whether more are waiting.
   */
  async function pushOutbox(): Promise<{ rows: number; more: boolean }> {
    const body: Record<string, Record<string, unknown>[]> = {};
    const moved: { tbl: string; at: string; key: string; n: number }[] = [];
    let more = false;
    let rows = 0;
    let bytes = 0;
    for (const o of OUTBOX) {
      await db.query(
        `INSERT INTO agent_push_cursors (upstream, tbl) VALUES ($1, $2) ON CONFLICT (upstream, tbl) DO NOTHING`,
        [upstream, o.table],
      );
      const cur = (
        await db.query<{ at: string; key: string }>(
          `SELECT at::text AS at, key FROM agent_push_cursors WHERE upstream = $1 AND tbl = $2`,
          [upstream, o.table],
        )
      ).rows[0];
      const cols = pushColumns(o.table)
        .map((c) => `t."${c}"`)
        .join(', ');
      const r = await db.query<Record<string, unknown> & { _at: string; _key: string }>(
        `SELECT ${cols}, (${o.at})::text AS _at, (${o.key}) AS _key FROM ${o.table} t
          WHERE (${o.scope}) AND ${o.at} IS NOT NULL
            AND (${o.at}, ${o.key}) > ($1::timestamptz, $2::text) AND ${o.at} < now() - ${SETTLE}
          ORDER BY ${o.at}, ${o.key} LIMIT ${OUTBOX_BATCH}`,
        [cur.at, cur.key],
      );
      // large config bodies: stop where the push would outgrow its byte budget
      const kept: Record<string, unknown>[] = [];
      let last: { _at: string; _key: string } | undefined;
      for (const { _at, _key, ...row } of r.rows) {
        const size = Buffer.byteLength(JSON.stringify(row));
        if (kept.length + rows > 0 && bytes + size > PUSH_BYTES) break;
        bytes += size;
        kept.push(row);
        last = { _at, _key };
      }
      if (last) {
        body[o.table] = kept;
        moved.push({ tbl: o.table, at: last._at, key: last._key, n: kept.length });
        rows += kept.length;
      }
      if (r.rows.length === OUTBOX_BATCH || kept.length < r.rows.length) {
        more = true;
        break;
      }
    }
    if (!rows) return { rows, more };
    await pushOrPark(body);
    await db.transaction(async (tx) => {
      for (const m of moved)
        await tx.query(
          `UPDATE agent_push_cursors SET at = $3, key = $4, pushed = pushed + $5
            WHERE upstream = $1 AND tbl = $2`,
          [upstream, m.tbl, m.at, m.key, m.n],
        );
    });
    return { rows, more };
  }

  /**
   * A push; when the upstream refuses it for good (a 4xx other than 401/403/404/408/429: a value
   * its tables refuse, a parent it does not know, too large), the rows it refuses are found and
   * parked (agent_push_parked, a warning in the log, an AgentPushParked job) and the others are
   * stored, so one bad row does not hold back everything behind it. Finding them: each table
   * alone in dependency order, a refused batch split in halves down to single rows; a single row
   * refused is tried once more at the end (its parent may have been in a later half); a row whose
   * parent was parked is parked with it. Answers once every row is stored or parked.
   */
  async function pushOrPark(body: Record<string, Record<string, unknown>[]>): Promise<void> {
    let first: RefusedForGood;
    try {
      await call('POST', 'push', body);
      await resolveSuperseded(body, []);
      return;
    } catch (err) {
      if (!(err instanceof RefusedForGood)) throw err;
      first = err;
    }
    const parkedIds = new Map<string, Set<unknown>>();
    const park: { tbl: string; row: Record<string, unknown>; error: string }[] = [];
    const parkRow = (tbl: string, row: Record<string, unknown>, error: string) => {
      park.push({ tbl, row, error });
      if (row.id !== undefined) (parkedIds.get(tbl) ?? parkedIds.set(tbl, new Set()).get(tbl)!).add(row.id);
    };
    const orphanOf = (tbl: string, row: Record<string, unknown>) =>
      (PARENTS[tbl] ?? []).find(([col, parent]) => row[col] != null && parkedIds.get(parent)?.has(row[col]));
    const again: { tbl: string; row: Record<string, unknown>; error: string }[] = [];
    const split = async (tbl: string, rows: Record<string, unknown>[]): Promise<void> => {
      try {
        await call('POST', 'push', { [tbl]: rows });
      } catch (err) {
        if (!(err instanceof RefusedForGood)) throw err;
        if (rows.length === 1) again.push({ tbl, row: rows[0], error: err.message });
        else {
          const mid = rows.length >> 1;
          await split(tbl, rows.slice(0, mid));
          await split(tbl, rows.slice(mid));
        }
      }
    };
    for (const [tbl, all] of Object.entries(body)) {
      if (!all?.length) continue;
      const rows: Record<string, unknown>[] = [];
      const orphans: Record<string, unknown>[] = [];
      for (const row of all) (orphanOf(tbl, row) ? orphans : rows).push(row);
      if (orphans.length) {
        // the upstream may hold an earlier version of their parent: one try together, else parked
        try {
          await call('POST', 'push', { [tbl]: orphans });
        } catch (err) {
          if (!(err instanceof RefusedForGood)) throw err;
          for (const row of orphans) {
            const [col, parent] = orphanOf(tbl, row)!;
            parkRow(tbl, row, `its ${parent} row ${String(row[col])} was refused (${err.message})`);
          }
        }
      }
      const from = again.length;
      if (rows.length) await split(tbl, rows);
      for (const a of again.splice(from)) {
        try {
          await call('POST', 'push', { [a.tbl]: [a.row] });
        } catch (err) {
          if (!(err instanceof RefusedForGood)) throw err;
          parkRow(a.tbl, a.row, err.message);
        }
      }
    }
    // the whole push was refused, but no single row of it is (too large together): park nothing
    if (!park.length) {
      log.warn({ error: first.message }, 'agent: the upstream refused a push whose rows it takes one by one');
      return;
    }
    const parkedNow = await db.transaction(async (tx) => {
      const r = await tx.query<{ id: string }>(
        `INSERT INTO agent_push_parked (upstream, tbl, row, row_key, error, last_attempt_at)
         SELECT $1, x.tbl, x.row, x.row_key, x.error, now()
           FROM jsonb_to_recordset($2::jsonb) AS x(tbl text, row jsonb, row_key text, error text)
         RETURNING id`,
        [upstream, JSON.stringify(park.map((p) => ({ ...p, row_key: keyOf(p.tbl, p.row) })))],
      );
      return r.rows.map((x) => x.id);
    });
    // the rows stored beside the parked ones may be later versions of rows parked before
    const parkedKeys = new Set(park.map((p) => `${p.tbl}\u0000${keyOf(p.tbl, p.row)}`));
    await resolveSuperseded(
      Object.fromEntries(
        Object.entries(body).map(([tbl, rows]) => [
          tbl,
          rows.filter((r) => !parkedKeys.has(`${tbl}\u0000${keyOf(tbl, r)}`)),
        ]),
      ),
      parkedNow,
    );
    for (const p of park.slice(0, 20))
      log.warn(
        { table: p.tbl, id: p.row.id ?? p.row.check_id ?? p.row.config_id, error: p.error },
        'agent: the upstream refused a row for good; parked it (agent_push_parked) and moved on',
      );
    // recorded as a job, unless what was parked is such a job's own row (no job about that job)
    if (!park.every((p) => p.tbl === 'job_history' && p.row.name === PARKED_JOB))
      await runJob(db, { name: PARKED_JOB, resourceType: 'agent', resourceId: upstream }, async (job) => {
        job.details.parked = park.slice(0, 50).map((p) => ({ table: p.tbl, error: p.error }));
        for (const p of park) job.error(`${p.tbl}: ${p.error}`);
      });
  }

  /**
   * Rows parked before whose key the upstream has now stored (a later version pushed as usual)
   * are no longer parked: resolved as stored, and reported so. `except`: rows parked just now.
   */
  async function resolveSuperseded(body: Record<string, Record<string, unknown>[]>, except: string[]): Promise<void> {
    const open = await db.query(`SELECT 1 FROM agent_push_parked WHERE upstream = $1 AND resolution IS NULL LIMIT 1`, [
      upstream,
    ]);
    if (!open.rows.length) return;
    for (const [tbl, rows] of Object.entries(body)) {
      if (!rows?.length) continue;
      await db.query(
        `UPDATE agent_push_parked SET resolution = 'stored', resolved_at = now(), reported_at = NULL
          WHERE upstream = $1 AND tbl = $2 AND resolution IS NULL AND row_key = ANY ($3::text[])
            AND NOT (id = ANY ($4::uuid[]))`,
        [upstream, tbl, rows.map((r) => keyOf(tbl, r)), except],
      );
    }
  }

  /** Set when the upstream takes no parked-row reports (an older upstream): asked again later. */
  let parkedReportsRefusedUntil = 0;
  /** Parked row ids an operator named that this agent does not hold (reported as gone). */
  const unknownParked = new Set<string>();

  /**
   * The parked rows to the upstream, for the agent's page there: the ones whose state it has not
   * seen (new, tried again, resolved), while any are left or any is still parked (an operator may
   * have asked for something); its answer carries the operators' retry and discard requests,
   * carried out here and reported on the next round.
   */
  async function syncParked(): Promise<void> {
    if (Date.now() < parkedReportsRefusedUntil) return;
    for (let round = 0; round < 10; round++) {
      const changed = await db.query<{
        id: string;
        tbl: string;
        row_key: string;
        row: Record<string, unknown>;
        error: string;
        parked_at: Date | string;
        attempts: number;
        last_attempt_at: Date | string | null;
        resolution: 'stored' | 'discarded' | null;
        handled_request_at: string | null;
      }>(
        `SELECT id::text AS id, tbl, row_key, row, error, parked_at, attempts, last_attempt_at, resolution,
                to_char(handled_request_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS handled_request_at
           FROM agent_push_parked WHERE upstream = $1 AND reported_at IS NULL
          ORDER BY parked_at, id LIMIT ${AGENT_PARKED_REPORT_MAX}`,
        [upstream],
      );
      const open = await db.query(
        `SELECT 1 FROM agent_push_parked WHERE upstream = $1 AND resolution IS NULL LIMIT 1`,
        [upstream],
      );
      if (!changed.rows.length && !open.rows.length && !unknownParked.size) return;
      const iso = (d: Date | string) => new Date(d).toISOString();
      const parked: AgentParkedRowReport[] = changed.rows
        .filter((r) => !r.resolution)
        .map((r) => ({
          id: r.id,
          table: r.tbl,
          key: r.row_key.slice(0, 1000),
          row: trimmedRow(r.tbl, r.row),
          error: r.error.slice(0, 4000),
          parked_at: iso(r.parked_at),
          attempts: r.attempts,
          last_attempt_at: r.last_attempt_at ? iso(r.last_attempt_at) : null,
          handled_request_at: r.handled_request_at,
        }));
      const gone = [...unknownParked].slice(0, AGENT_PARKED_REPORT_MAX - changed.rows.length);
      const resolved = [
        ...changed.rows.filter((r) => r.resolution).map((r) => ({ id: r.id, resolution: r.resolution! })),
        ...gone.map((id) => ({ id, resolution: 'discarded' as const })),
      ];
      let answer: { requests: AgentParkedRequest[] };
      try {
        answer = await call('POST', 'parked', { parked, resolved });
      } catch (err) {
        if (!(err instanceof TokenRefused) && !(err instanceof RefusedForGood)) throw err;
        // no such route there (404), or it refuses the report: the pushes go on without it; a
        // token really refused stops the agent through the ping and push calls
        parkedReportsRefusedUntil = Date.now() + 10 * 60_000;
        log.warn({ error: err.message }, 'agent: the upstream takes no parked-row report; asking again in 10 minutes');
        return;
      }
      await db.query(`UPDATE agent_push_parked SET reported_at = now() WHERE id = ANY ($1::uuid[])`, [
        changed.rows.map((r) => r.id),
      ]);
      for (const id of gone) unknownParked.delete(id);
      for (const req of answer.requests ?? []) await carryOut(req);
      if (!answer.requests?.length && changed.rows.length < AGENT_PARKED_REPORT_MAX) return;
    }
  }

  /**
   * An operator's request for a parked row: discard forgets it (a discarded check stays out of the
   * pushes until its definition changes, as before); retry pushes the row again, as it is here now
   * (the current local row when its table has one, else the parked copy): stored, it is resolved;
   * refused again, it stays parked with one attempt more and the new answer.
   */
  async function carryOut(req: AgentParkedRequest): Promise<void> {
    const found = await db.query<{ tbl: string; row: Record<string, unknown>; resolution: string | null }>(
      `SELECT tbl, row, resolution FROM agent_push_parked WHERE upstream = $1 AND id = $2`,
      [upstream, req.id],
    );
    const p = found.rows[0];
    if (!p) {
      unknownParked.add(req.id);
      return;
    }
    const handled = (sets: string, params: unknown[] = []) =>
      db.query(`UPDATE agent_push_parked SET ${sets}, handled_request_at = $2, reported_at = NULL WHERE id = $1`, [
        req.id,
        req.requested_at,
        ...params,
      ]);
    if (p.resolution) return void (await handled('resolved_at = resolved_at'));
    if (req.action === 'discard') {
      await handled(`resolution = 'discarded', resolved_at = now()`);
      log.info({ table: p.tbl, parked: req.id }, 'agent: discarded a parked row, as asked upstream');
      return;
    }
    let row = p.row;
    if (RELOADABLE.has(p.tbl)) {
      const cols = keyColumns(p.tbl);
      const current = await db.query<Record<string, unknown>>(
        `SELECT ${pushColumns(p.tbl)
          .map((c) => `t."${c}"`)
          .join(', ')} FROM ${p.tbl} t WHERE ${cols.map((c, i) => `t."${c}" = $${i + 1}`).join(' AND ')}`,
        cols.map((c) => p.row[c]),
      );
      if (current.rows[0]) row = current.rows[0];
    }
    try {
      await call('POST', 'push', { [p.tbl]: [row] });
    } catch (err) {
      if (!(err instanceof RefusedForGood)) throw err;
      await handled(`attempts = attempts + 1, last_attempt_at = now(), error = $3`, [err.message]);
      log.warn({ table: p.tbl, parked: req.id, error: err.message }, 'agent: a parked row retried was refused again');
      return;
    }
    await handled(`resolution = 'stored', resolved_at = now(), attempts = attempts + 1, last_attempt_at = now()`);
    log.info({ table: p.tbl, parked: req.id }, 'agent: a parked row retried was stored upstream');
  }

  /**
   * One long-poll for a playbook action; one that came is stored as a local run (and as owed to
   * the upstream) in one transaction, so it runs once here even across a restart.
   */
  async function takeAction(): Promise<void> {
    const r = await call<{ action: unknown }>('GET', `playbook/actions?timeout=${ACTION_POLL_S}`);
    if (!r?.action) return;
    const parsed = playbookHandedActionSchema.safeParse(r.action);
    if (!parsed.success) {
      // taken upstream but unreadable here (an upstream newer than this agent): say so at once
      const id = (r.action as { id?: unknown }).id;
      const error = `this agent cannot run the action: ${parsed.error.issues[0]?.message ?? 'unreadable'}`;
      log.warn({ action: id, error }, 'agent: playbook action refused');
      if (typeof id === 'string')
        await call('POST', 'push', {
          playbook_run_actions: [{ id, status: 'failed', error, end_time: new Date().toISOString() }],
        });
      return;
    }
    const handed = parsed.data;
    try {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO agent_playbook_actions (action_id, upstream) VALUES ($1, $2) ON CONFLICT (action_id) DO NOTHING`,
          [handed.id, upstream],
        );
        await runHandedAction(tx, handed);
      });
    } catch (err) {
      // taken but not stored here, so never run: the upstream learns it now, not after a timeout
      const error = `the agent could not store the action: ${(err as Error).message}`;
      log.error({ action: handed.id, error }, 'agent: playbook action not run');
      await call('POST', 'push', {
        playbook_run_actions: [{ id: handed.id, status: 'failed', error, end_time: new Date().toISOString() }],
      }).catch(() => {});
      throw err;
    }
    log.info({ action: handed.id, name: handed.name, run: handed.run_id }, 'agent: took a playbook action');
  }

  /** The results of taken actions whose local run ended, in one push. Rows pushed. */
  async function pushReports(): Promise<number> {
    const owed = await db.query<{ id: string }>(
      `SELECT action_id::text AS id FROM agent_playbook_actions WHERE upstream = $1 AND reported_at IS NULL
        ORDER BY received_at LIMIT 500`,
      [upstream],
    );
    const reports = await handedActionReports(
      db,
      owed.rows.map((o) => o.id),
    );
    if (!reports.length) return 0;
    await pushOrPark({ playbook_run_actions: reports });
    await db.query(`UPDATE agent_playbook_actions SET reported_at = now() WHERE action_id = ANY ($1::uuid[])`, [
      reports.map((r) => r.id),
    ]);
    return reports.length;
  }

  /** Pushes until the outboxes are empty (or a push fails). */
  async function pushAll(): Promise<number> {
    let total = await pushReports();
    for (;;) {
      const n = await pushBatch();
      total += n;
      if (n < BATCH) break;
    }
    for (;;) {
      const { rows, more } = await pushOutbox();
      total += rows;
      if (!more) break;
    }
    await syncParked();
    return total;
  }

  /** Runs `task` every `everyMs`; after a failure waits 1 s, 2 s, 4 s ... up to a minute. */
  function loop(name: string, everyMs: number, task: () => Promise<unknown>) {
    let failures = 0;
    const next = (ms: number) => {
      if (stopped) return;
      const t = setTimeout(() => {
        timers.delete(t);
        void run();
      }, ms);
      timers.add(t);
    };
    const run = async () => {
      try {
        await task();
        if (failures) log.info({ task: name }, 'agent: the upstream answers again');
        failures = 0;
        next(everyMs);
      } catch (err) {
        if (err instanceof TokenRefused) {
          stop();
          opts.onFatal(err);
          return;
        }
        failures++;
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));
        log.warn(
          { task: name, err: { message: (err as Error).message }, retryInMs: wait },
          'agent: upstream call failed',
        );
        next(wait);
      }
    };
    void run();
  }

  function stop() {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
  }

  loop('ping', PING_MS, () => call('POST', 'ping', { hostname: opts.hostname, version: opts.version }));
  loop('pull', PULL_MS, pull);
  loop('push', PUSH_MS, pushAll);
  loop('actions', 0, takeAction);
  return { stop, pushNow: pushAll };
}
