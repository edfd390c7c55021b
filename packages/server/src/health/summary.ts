import type { Db } from '../db/index.ts';
import { rollupWatermark } from './rollups.ts';
import type { TimeWindow } from './time-range.ts';

/**
 * The health summary feed (GET /api/canary/api/summary, seed 000 "returns checks_summary"): every
 * live check of a live canary with its uptime {passed, failed, last_pass, last_fail} and latency
 * {p95, p97, p99, rolling1h} over the requested window, plus the agent's id and name.
 *
 * Where the numbers come from depends on the window:
 *   up to 6 hours   raw runs (exact percentiles);
 *   up to 2 days    hourly roll-ups from the window's first hour, plus raw runs after the watermark;
 *   longer          daily roll-ups from the window's first day, plus raw runs after the watermark.
 * Roll-up windows start at the whole hour / day. Their percentiles are approximations: the 95th
 * percentile of the buckets' p95 values (97th of p97, 99th of p99), each raw run after the
 * watermark counting as a bucket; that keeps slow hours visible in a month-long p95, as a mean
 * of hourly percentiles would not. rolling1h is the mean duration of the last hour's raw runs.
 *
 * Cost (5,000 checks, 30 days of runs every 15 minutes; README "Benchmark"): a roll-up window of
 * the whole feed reads its roll-up part once per roll-up pass (rollupParts below), so a request
 * costs what the 1-hour feed does: one statement that renders the checks and aggregates the last
 * minutes of raw runs. A window narrowed to one check or canary reads its few roll-up rows itself.
 */
export interface SummaryFilter {
  checkId?: string;
  canaryId?: string;
  agentId?: string;
  namespace?: string;
  type?: string;
  /** include: every label must match; exclude: none may */
  labels?: { include: [string, string][]; exclude: [string, string][] };
  /** these checks only: one slice of the feed (checksSummaryEach on PGlite) */
  ids?: string[];
}

const RAW_MAX_MS = 6 * 3_600_000;
const HOURLY_MAX_MS = 2 * 86_400_000;

export type SummarySource = 'raw' | '1h' | '1d';

function summarySource(window: TimeWindow): SummarySource {
  const span = window.end.getTime() - window.start.getTime();
  return span <= RAW_MAX_MS ? 'raw' : span <= HOURLY_MAX_MS ? '1h' : '1d';
}

/**
 * `labels` as the dashboard sends it: comma-separated `key=value` (or `key:value`) items, an
 * exclusion prefixed with '!' (seed 000); or the URL's JSON form {"key=value": 1 | -1}.
 */
export function parseLabelFilter(text: string | undefined): SummaryFilter['labels'] {
  if (!text?.trim()) return undefined;
  const include: [string, string][] = [];
  const exclude: [string, string][] = [];
  const add = (item: string, neg: boolean) => {
    const m = /^([^=:]+)[=:](.*)$/.exec(item.trim());
    if (!m) throw new RangeError(`labels item "${item}" must be key=value (prefix '!' to exclude)`);
    (neg ? exclude : include).push([m[1].trim(), m[2].trim()]);
  };
  const t = text.trim();
  if (t.startsWith('{')) {
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(t) as Record<string, unknown>;
    } catch {
      throw new RangeError(
        'labels must be key=value items separated by commas, or a JSON object {"key=value": 1 | -1}',
      );
    }
    for (const [k, v] of Object.entries(obj)) if (Number(v) !== 0) add(k, Number(v) < 0);
  } else {
    for (const part of t.split(',')) if (part.trim()) add(part.trim().replace(/^!/, ''), part.trim().startsWith('!'));
  }
  return { include, exclude };
}

function checkFilter(f: SummaryFilter, params: unknown[]): string {
  const parts = ['c.deleted_at IS NULL', 'ca.deleted_at IS NULL'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    parts.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (f.checkId) add('c.id = ?::uuid', f.checkId);
  if (f.canaryId) add('c.canary_id = ?::uuid', f.canaryId);
  if (f.agentId) add('c.agent_id = ?::uuid', f.agentId);
  if (f.namespace) add('c.namespace = ?', f.namespace);
  if (f.type) add('c.type = ?', f.type);
  if (f.ids) add('c.id = ANY(?::uuid[])', f.ids);
  for (const [k, v] of f.labels?.include ?? []) add('c.labels @> ?::jsonb', JSON.stringify({ [k]: v }));
  for (const [k, v] of f.labels?.exclude ?? [])
    add("NOT (coalesce(c.labels, '{}') @> ?::jsonb)", JSON.stringify({ [k]: v }));
  return parts.join(' AND ');
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const PERCENTILES = [0.95, 0.97, 0.99] as const;

/** date_trunc(unit, t, 'UTC'), done once here rather than for every roll-up row a query filters. */
const truncUtc = (t: Date, unitMs: number) => new Date(Math.floor(t.getTime() / unitMs) * unitMs);

/**
 * One check's roll-up part of a window: run counts, and the window's bucket percentiles sorted
 * ascending (NULLs left out, as percentile_disc leaves them out), ready to merge with raw runs.
 */
interface RollupPart {
  passed: number;
  failed: number;
  pct: [Int32Array, Int32Array, Int32Array];
}

/**
 * The roll-up parts of every check for one window (roll-up table, first bucket, end), kept per
 * process and database handle. An entry is exact up to the watermark it was read at: roll-up rows
 * change only in a roll-up pass, and every pass moves the watermark. A request completes the
 * entry with the raw runs after that watermark, so one statement per request reads only the last
 * minutes of runs, not a month of roll-ups.
 *
 * After a pass, the previous entry (if at most STALE_MAX_MS older) keeps answering, completed with
 * the raw runs after its own watermark, while the entry of the new watermark is read once in the
 * background: meanwhile the feed is what it was just before that pass plus the runs recorded
 * since (it misses only runs recorded late, after their start time had fallen behind the previous
 * watermark, at most the roll-up margin, as it did before the pass). The first request of a
 * window waits for its entry.
 */
interface CacheEntry {
  watermark: number;
  parts: Promise<Map<string, RollupPart>>;
  refreshing?: boolean;
}
const MAX_CACHED_WINDOWS = 4;
const STALE_MAX_MS = 3_600_000;
const rollupCaches = new WeakMap<Db, Map<string, CacheEntry>>();

/** For tests: forget every cached roll-up window of a database handle. */
export function clearRollupCache(db: Db): void {
  rollupCaches.delete(db);
}

/** "12,7,30" -> Int32Array [12, 7, 30] (non-negative integers, as string_agg writes them). */
function parseInts(text: string | null): Int32Array {
  if (!text) return new Int32Array(0);
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) count++;
  const out = new Int32Array(count);
  let k = 0;
  let v = 0;
  let neg = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 44) {
      out[k++] = neg ? -v : v;
      v = 0;
      neg = false;
    } else if (ch === 45) neg = true;
    else v = v * 10 + (ch - 48);
  }
  out[k] = neg ? -v : v;
  return out;
}

async function loadRollupParts(db: Db, table: string, from: Date, until: Date): Promise<Map<string, RollupPart>> {
  const { rows } = await db.query<{
    id: string;
    passed: number;
    failed: number;
    p95: string | null;
    p97: string | null;
    p99: string | null;
  }>(
    `SELECT r.check_id AS id, sum(r.passed)::int8 AS passed, sum(r.failed)::int8 AS failed,
       string_agg(r.p95::text, ',' ORDER BY r.p95) AS p95,
       string_agg(r.p97::text, ',' ORDER BY r.p97) AS p97,
       string_agg(r.p99::text, ',' ORDER BY r.p99) AS p99
     FROM ${table} r
     WHERE r.bucket >= $1 AND r.bucket < $2
     GROUP BY r.check_id`,
    [from.toISOString(), until.toISOString()],
  );
  const parts = new Map<string, RollupPart>();
  for (const r of rows)
    parts.set(r.id, {
      passed: Number(r.passed),
      failed: Number(r.failed),
      pct: [parseInts(r.p95), parseInts(r.p97), parseInts(r.p99)],
    });
  return parts;
}

/**
 * The roll-up parts for a window [from, end) of `table` and the watermark they are exact up to
 * (at most `watermark`); the caller adds the raw runs from there on.
 */
function rollupParts(
  db: Db,
  table: string,
  from: Date,
  end: Date,
  watermark: Date,
): { parts: Promise<Map<string, RollupPart>>; upTo: Date } {
  let cache = rollupCaches.get(db);
  if (!cache) rollupCaches.set(db, (cache = new Map()));
  // windows that reach the watermark share an entry across passes; older ones end where they end
  const key = `${table}|${from.getTime()}|${end >= watermark ? 'now' : end.getTime()}`;
  const load = () => loadRollupParts(db, table, from, end < watermark ? end : watermark);
  const store = (entry: CacheEntry) => {
    cache.delete(key);
    if (cache.size >= MAX_CACHED_WINDOWS) cache.delete(cache.keys().next().value!);
    cache.set(key, entry);
  };
  const w = watermark.getTime();
  const entry = cache.get(key);
  if (entry && entry.watermark === w) return { parts: entry.parts, upTo: watermark };
  if (entry && entry.watermark < w && w - entry.watermark <= STALE_MAX_MS) {
    if (!entry.refreshing) {
      entry.refreshing = true;
      const parts = load();
      parts.then(
        () => store({ watermark: w, parts }),
        () => (entry.refreshing = false),
      );
    }
    return { parts: entry.parts, upTo: new Date(entry.watermark) };
  }
  const parts = load();
  parts.catch(() => cache.get(key)?.parts === parts && cache.delete(key));
  store({ watermark: w, parts });
  return { parts, upTo: watermark };
}

/**
 * percentile_disc(q) over the values of two ascending arrays together: the value at position
 * ceil(q * n) (1-based, at least 1) of the union in ascending order, with PostgreSQL's float8
 * arithmetic; null when there is no value. A binary search for how many of the values before it
 * come from `a` (the k-th smallest of two sorted arrays), so the cost does not grow with the
 * number of raw runs merged in.
 */
export function percentileOfUnion(a: ArrayLike<number>, b: ArrayLike<number>, q: number): number | null {
  const n = a.length + b.length;
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil(q * n));
  if (b.length === 0) return a[rank - 1];
  if (a.length === 0) return b[rank - 1];
  // i values from a and rank - i from b: the smallest i for which a does not need to give more
  let lo = Math.max(0, rank - b.length);
  let hi = Math.min(rank, a.length);
  while (lo < hi) {
    const i = (lo + hi) >>> 1;
    if (a[i] < b[rank - i - 1]) lo = i + 1;
    else hi = i;
  }
  const j = rank - lo;
  if (lo === 0) return b[j - 1];
  if (j === 0) return a[lo - 1];
  return Math.max(a[lo - 1], b[j - 1]);
}

/**
 * Every live check's JSON head (check_feed) by id, kept per process and database handle and read
 * again when check_feed_state.version moves (sql/20-health.sql: a statement trigger on check_feed,
 * so the number moves in the transaction that changes a head). Heads change when a canary spec is
 * synced or a canary or agent renamed; between those, requests only read the version.
 */
/** check_feed_state.version: moves with every change of a head (a check added, deleted or renamed). */
export async function feedVersion(db: Db): Promise<number> {
  const { rows } = await db.query<{ version: number }>(`SELECT version FROM check_feed_state`);
  return rows[0] ? Number(rows[0].version) : -1;
}

const headCaches = new WeakMap<Db, { version: number; heads: Promise<Map<string, string>> }>();

async function feedHeads(db: Db): Promise<Map<string, string>> {
  const { rows } = await db.query<{ version: number }>(`SELECT version FROM check_feed_state`);
  const live = () => readHeads(db, `c.deleted_at IS NULL`, []);
  // without its row (never without tampering) nothing says when heads change: read them each time
  if (!rows[0]) return live();
  const version = Number(rows[0].version);
  const cached = headCaches.get(db);
  if (cached && cached.version === version) return cached.heads;
  const heads = live();
  headCaches.set(db, { version, heads });
  heads.catch(() => headCaches.get(db)?.heads === heads && headCaches.delete(db));
  return heads;
}

/** Heads of the checks matching `where` (a check without one, as none should be, rendered here). */
async function readHeads(db: Db, where: string, params: unknown[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; head: string }>(
    `SELECT c.id, coalesce(f.head, check_feed_head(c)) AS head
     FROM checks c LEFT JOIN check_feed f ON f.check_id = c.id WHERE ${where}`,
    params,
  );
  return new Map(rows.map((r) => [r.id, r.head]));
}

/**
 * One row of the statement: the columns a check run changes as PostgreSQL's text, and the parts
 * of uptime and latency; the check's JSON head comes from feedHeads.
 */
interface FeedRow {
  id: string;
  status: string | null;
  last_runtime: string | null;
  next_runtime: string | null;
  last_transition_time: string | null;
  passed: number | null;
  failed: number | null;
  last_pass: string | null;
  last_fail: string | null;
  /** the narrowed roll-up statement's percentiles (other statements send durations) */
  p95?: number | null;
  p97?: number | null;
  p99?: number | null;
  /** durations of the window's raw runs (raw windows) or of those after the watermark (cached roll-up windows), comma-separated */
  durations?: string | null;
  rolling1h: number | null;
}

const NO_VALUES = new Int32Array(0);
const NO_PART: RollupPart = { passed: 0, failed: 0, pct: [new Int32Array(0), new Int32Array(0), new Int32Array(0)] };

const json = (v: number | string | null | undefined) => (v === null || v === undefined ? 'null' : String(v));

/**
 * A timestamptz as PostgreSQL's to_json writes it, from its ISO text output (the drivers keep
 * timestamps as text): "2026-11-25 10:14:03.5+00" -> "2026-11-25T10:14:03.5+00:00", the offset
 * always with its minutes. Anything else (infinity) is passed through as a string. to_json itself
 * costs about a microsecond a value, 15 ms for the run times of 5,000 checks.
 */
export function timestampJson(v: string | null): string {
  if (v === null) return 'null';
  if (v.length < 22 || v.charCodeAt(10) !== 32) return JSON.stringify(v);
  const sign = Math.max(v.lastIndexOf('+'), v.lastIndexOf('-'));
  const offset = v.slice(sign);
  return `"${v.slice(0, 10)}T${v.slice(11, sign)}${offset.length === 3 ? `${offset}:00` : offset}"`;
}

/**
 * A check's JSON: its head continued with the run's columns, uptime and latency (seed 000's keys
 * and order). deleted_at is always null: the feed lists live checks only.
 */
function feedRow(
  head: string,
  r: FeedRow,
  passed: number,
  failed: number,
  p95: number | null,
  p97: number | null,
  p99: number | null,
): string {
  return (
    `${head},"status":${r.status === null ? 'null' : JSON.stringify(r.status)},"last_runtime":${timestampJson(r.last_runtime)},` +
    `"next_runtime":${timestampJson(r.next_runtime)},"last_transition_time":${timestampJson(r.last_transition_time)},` +
    `"deleted_at":null,"uptime":{"passed":${passed},"failed":${failed},` +
    `"last_pass":${timestampJson(r.last_pass)},"last_fail":${timestampJson(r.last_fail)}},` +
    `"latency":{"p95":${json(p95)},"p97":${json(p97)},"p99":${json(p99)},"rolling1h":${json(r.rolling1h)}}}`
  );
}

/**
 * Hands the feed to onCheck as one JSON text per check, in feed order (canary name, then check name).
 *
 * PostgreSQL returns, per check, the columns a run changes and the numbers of its uptime and
 * latency; feedRow continues the check's JSON head (check_feed, held in memory by feedHeads) with
 * them, and the caller splices the rows into the answer.
 * Measured on 5,000 checks, one row per check is the cheap shape: one
 * json_agg value of several MB costs PostgreSQL about 60 ms more than the same rows sent one by
 * one, and Node takes longer to decode one such value than to read the rows. The roll-up
 * windows' bounds are computed here (a date_trunc(..., 'UTC') in the WHERE clause runs for every
 * row it filters), and without a filter no selection is joined into the history scans.
 *
 * A roll-up window of the whole feed (no check or canary filter) takes its roll-up part from
 * rollupParts (read once per roll-up pass) and merges the raw runs after that part's watermark in
 * here; the numbers are those of the single-statement form that narrow requests (one check, one
 * canary) use, which reads the roll-ups every time.
 */
export async function checksSummaryEach(
  db: Db,
  window: TimeWindow,
  filter: SummaryFilter,
  onCheck: (json: string) => void,
  slice = db.driver === 'pglite' ? PGLITE_SLICE : 0,
): Promise<SummarySource> {
  if (!slice || filter.checkId || filter.ids) return summaryStatement(db, window, filter, onCheck);
  // one clock for every slice, so each takes rolling1h from the same scan as the first did; taken
  // before the id list is read: when that read was slow (over a second, cold, on PGlite) a clock
  // taken after it put the window's end more than a second back, and every slice then read the
  // last hour twice (a separate rolling1h scan), doubling the statement's cost
  const now = Date.now();
  const params: unknown[] = [];
  const where = checkFilter(filter, params);
  const { rows } = await db.query<{ id: string }>(
    `SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ${where} ORDER BY ca.name, c.name, c.id`,
    params,
  );
  if (rows.length <= slice) return summaryStatement(db, window, filter, onCheck, now);
  let source: SummarySource = summarySource(window);
  for (let i = 0; i < rows.length; i += slice) {
    // what queued behind this slice on the one connection (a check run, a request) goes first
    if (i) await new Promise((r) => setImmediate(r));
    const ids = rows.slice(i, i + slice).map((r) => r.id);
    source = await summaryStatement(db, window, { ...filter, ids }, onCheck, now);
  }
  return source;
}

/**
 * PGlite runs a statement inside this process, on its thread: while the summary's statement for
 * 5,000 checks runs (seconds, on an hour of runs every 30 s) nothing else does, not the check
 * engine, not a request for one row. The feed is therefore read there in slices of this many
 * checks, in feed order, one statement each, with the event loop free between two. A check
 * created while the slices are read appears from the next request on.
 */
const PGLITE_SLICE = 500;

/** The feed (or one slice of it) in one statement; see checksSummaryEach. */
async function summaryStatement(
  db: Db,
  window: TimeWindow,
  filter: SummaryFilter,
  onCheck: (json: string) => void,
  now = Date.now(),
): Promise<SummarySource> {
  const source = summarySource(window);
  const table = source === '1h' ? 'check_statuses_1h' : 'check_statuses_1d';
  // roll-up buckets from the window's first whole hour / day (UTC) up to the watermark, raw runs
  // from the watermark on
  const from = truncUtc(window.start, source === '1h' ? HOUR_MS : DAY_MS);
  let watermark = source === 'raw' ? null : ((await rollupWatermark(db)) ?? new Date(0));
  const cached = source !== 'raw' && !filter.checkId && !filter.canaryId;
  let rollup: Promise<Map<string, RollupPart>> | undefined;
  if (cached) ({ parts: rollup, upTo: watermark } = rollupParts(db, table, from, window.end, watermark!));
  const rawFrom = watermark && watermark > window.start ? watermark : window.start;
  const until = watermark && watermark < window.end ? watermark : window.end;
  // $1, $2: the window of the raw runs read
  const params: unknown[] = [rawFrom.toISOString(), window.end.toISOString()];
  const where = checkFilter(filter, params);
  // Without a filter every live check is wanted: aggregate history without joining the selection
  // (the final join drops deleted checks); with one, join it early to read less.
  const narrowed = where !== 'c.deleted_at IS NULL AND ca.deleted_at IS NULL';
  // A slice names its checks: the history is read by (check_id, time) for those alone (a join
  // with the selection read the whole window's runs once per slice).
  let idsParam = '';
  if (filter.ids) {
    params.push(filter.ids);
    idsParam = `$${params.length}`;
  }
  const only = (alias: string) => (narrowed && !filter.ids ? `JOIN sel ON sel.id = ${alias}.check_id` : '');
  const ids = (alias: string) => (filter.ids ? `${alias}.check_id = ANY(${idsParam}::uuid[]) AND ` : '');
  // rolling1h comes from the scan of raw runs when that covers the last hour: a raw window
  // that does, or the raw runs after the watermark, read from the last hour on with filters.
  const rollingInStats =
    cached || (source === 'raw' && window.start.getTime() <= now - HOUR_MS && window.end.getTime() >= now - 1000);
  // raw runs' durations come as text and their percentiles are taken here; only the narrowed
  // roll-up statement gives the percentiles itself
  const durations = cached || source === 'raw';
  let stats: string;
  if (source === 'raw') {
    // the durations go out as text and their percentiles are taken here (percentileOfUnion is
    // percentile_disc): an ordered-set aggregate per check cost PostgreSQL a sort per check,
    // about a quarter of the statement for 5,000 checks
    stats = `
      SELECT cs.check_id,
        count(*) FILTER (WHERE cs.status) AS passed, count(*) FILTER (WHERE NOT cs.status) AS failed,
        max(cs.time) FILTER (WHERE cs.status) AS last_pass, max(cs.time) FILTER (WHERE NOT cs.status) AS last_fail,
        string_agg(cs.duration::text, ',') AS durations${
          rollingInStats
            ? `,
        round(avg(cs.duration) FILTER (WHERE cs.time > now() - interval '1 hour'))::int AS rolling1h`
            : ''
        }
      FROM check_statuses cs ${only('cs')}
      WHERE ${ids('cs')}cs.time >= $1 AND cs.time < $2
      GROUP BY cs.check_id`;
  } else if (cached) {
    // the raw runs after the watermark (the roll-up part comes from the cache) and the last hour's
    const tail = 'cs.time >= $1 AND cs.time < $2';
    stats = `
      SELECT cs.check_id,
        count(*) FILTER (WHERE ${tail} AND cs.status) AS passed, count(*) FILTER (WHERE ${tail} AND NOT cs.status) AS failed,
        max(cs.time) FILTER (WHERE ${tail} AND cs.status) AS last_pass, max(cs.time) FILTER (WHERE ${tail} AND NOT cs.status) AS last_fail,
        string_agg(cs.duration::text, ',') FILTER (WHERE ${tail}) AS durations,
        round(avg(cs.duration) FILTER (WHERE cs.time > now() - interval '1 hour'))::int AS rolling1h
      FROM check_statuses cs ${only('cs')}
      WHERE ${ids('cs')}cs.time >= least($1::timestamptz, now() - interval '1 hour')
      GROUP BY cs.check_id`;
  } else {
    params.push(from.toISOString(), until.toISOString());
    stats = `
      SELECT u.check_id, sum(u.passed) AS passed, sum(u.failed) AS failed,
        max(u.last_pass) AS last_pass, max(u.last_fail) AS last_fail,
        ARRAY[percentile_disc(0.95) WITHIN GROUP (ORDER BY u.p95),
              percentile_disc(0.97) WITHIN GROUP (ORDER BY u.p97),
              percentile_disc(0.99) WITHIN GROUP (ORDER BY u.p99)] AS pct
      FROM (
        SELECT r.check_id, r.passed, r.failed, NULL::timestamptz AS last_pass, NULL::timestamptz AS last_fail,
          r.p95, r.p97, r.p99
        FROM ${table} r ${only('r')}
        WHERE ${ids('r')}r.bucket >= $${params.length - 1}::timestamptz AND r.bucket < $${params.length}::timestamptz
        UNION ALL
        SELECT cs.check_id, cs.status::int, (NOT cs.status)::int,
          CASE WHEN cs.status THEN cs.time END, CASE WHEN NOT cs.status THEN cs.time END,
          cs.duration, cs.duration, cs.duration
        FROM check_statuses cs ${only('cs')}
        WHERE ${ids('cs')}cs.time >= $1 AND cs.time < $2
      ) u
      GROUP BY u.check_id`;
  }
  const sql = `
    WITH ${narrowed ? `sel AS (SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ${where}), ` : ''}stats AS (${stats}
    )${
      rollingInStats
        ? ''
        : `, rolling AS (
      SELECT cs.check_id, round(avg(cs.duration))::int AS rolling1h
      FROM check_statuses cs ${only('cs')}
      WHERE ${ids('cs')}cs.time > now() - interval '1 hour'
      GROUP BY cs.check_id
    )`
    }
    SELECT c.id, c.status, c.last_runtime, c.next_runtime, c.last_transition_time,
      s.passed, s.failed, s.last_pass, s.last_fail,${durations ? ' s.durations,' : ' s.pct[1] AS p95, s.pct[2] AS p97, s.pct[3] AS p99,'} ${rollingInStats ? 's' : 'r'}.rolling1h
    FROM checks c
    JOIN canaries ca ON ca.id = c.canary_id
    LEFT JOIN stats s ON s.check_id = c.id
    ${rollingInStats ? '' : 'LEFT JOIN rolling r ON r.check_id = c.id'}
    WHERE ${where}
    ORDER BY ca.name, c.name, c.id`;
  // Rows are rendered as they arrive (db.each), so a request never holds 5,000 row objects at
  // once. Rows wait while what they need is still being read: the heads (after a change) and a
  // cached roll-up part; a check missing from the heads (created or restored after they were read)
  // holds back itself and the rows after it until the statement is done and its head is read.
  let parts: Map<string, RollupPart> | undefined;
  let heads: Map<string, string> | undefined;
  const waiting: FeedRow[] = [];
  const render = (r: FeedRow, head: string) => {
    if (!durations)
      return onCheck(
        feedRow(head, r, Number(r.passed ?? 0), Number(r.failed ?? 0), r.p95 ?? null, r.p97 ?? null, r.p99 ?? null),
      );
    const part = parts?.get(r.id) ?? NO_PART;
    const raw = r.durations ? parseInts(r.durations).sort() : NO_VALUES;
    onCheck(
      feedRow(
        head,
        r,
        part.passed + Number(r.passed ?? 0),
        part.failed + Number(r.failed ?? 0),
        percentileOfUnion(part.pct[0], raw, PERCENTILES[0]),
        percentileOfUnion(part.pct[1], raw, PERCENTILES[1]),
        percentileOfUnion(part.pct[2], raw, PERCENTILES[2]),
      ),
    );
  };
  /** Renders r, after the rows waiting before it, as far as their heads are known. */
  const advance = (r?: FeedRow) => {
    const go = heads !== undefined && (!rollup || parts !== undefined);
    if (r && go && !waiting.length) {
      const head = heads!.get(r.id);
      if (head !== undefined) return render(r, head);
    }
    if (r) waiting.push(r);
    if (!go) return;
    let i = 0;
    for (; i < waiting.length; i++) {
      const head = heads!.get(waiting[i].id);
      if (head === undefined) break;
      render(waiting[i], head);
    }
    waiting.splice(0, i);
  };
  const ready = Promise.all([feedHeads(db).then((h) => void (heads = h)), rollup?.then((p) => void (parts = p))]).then(
    () => advance(),
  );
  await Promise.all([ready, db.each<FeedRow>(sql, params, (r) => advance(r))]);
  if (waiting.length) {
    const more = await readHeads(db, `c.id = ANY($1::uuid[])`, [
      waiting.filter((r) => !heads!.has(r.id)).map((r) => r.id),
    ]);
    for (const r of waiting.splice(0)) {
      const head = heads!.get(r.id) ?? more.get(r.id);
      // a check deleted for good since the statement read it is left out
      if (head !== undefined) render(r, head);
    }
  }
  return source;
}

/** The feed as one JSON text per check, in feed order. */
export async function checksSummaryRows(
  db: Db,
  window: TimeWindow,
  filter: SummaryFilter = {},
): Promise<{ rows: string[]; source: SummarySource }> {
  const rows: string[] = [];
  const source = await checksSummaryEach(db, window, filter, (json) => rows.push(json));
  return { rows, source };
}

/** The feed as objects (tests, other server code). */
export async function checksSummary(
  db: Db,
  window: TimeWindow,
  filter: SummaryFilter = {},
): Promise<{ rows: Record<string, unknown>[]; source: SummarySource }> {
  const { rows, source } = await checksSummaryRows(db, window, filter);
  return { rows: rows.map((r) => JSON.parse(r) as Record<string, unknown>), source };
}
