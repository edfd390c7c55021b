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
 *
 * Failures back off exponentially (1 s doubling to 60 s). A token the upstream refuses (401, or
 * 404: no agent behind it) stops the agent with a message saying so.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AGENT_PUSH_MAX_BYTES } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { pushColumns } from './push.ts';

const PULL_MS = 30_000;
const PUSH_MS = 5_000;
const PING_MS = 30_000;
const BATCH = 5_000;
const MAX_BACKOFF_MS = 60_000;
/** Rows younger than this may still have company committing with an earlier timestamp. */
const SETTLE = `interval '2 seconds'`;
/** No check run lasts longer: bounds the scan through check_statuses_time_idx. */
const LONGEST_RUN = `interval '1 hour'`;

class TokenRefused extends Error {}

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
    scope: `t.resource_id IN (SELECT id::text FROM canaries WHERE source = 'upstream'
              UNION ALL SELECT id::text FROM config_scrapers WHERE source = 'upstream'
              UNION ALL SELECT id::text FROM topologies WHERE source = 'upstream')`,
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
    await call('POST', 'push', {
      checks: checks.rows,
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
    await call('POST', 'push', body);
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

  /** Pushes until the outboxes are empty (or a push fails). */
  async function pushAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await pushBatch();
      total += n;
      if (n < BATCH) break;
    }
    for (;;) {
      const { rows, more } = await pushOutbox();
      total += rows;
      if (!more) return total;
    }
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
  return { stop, pushNow: pushAll };
}
