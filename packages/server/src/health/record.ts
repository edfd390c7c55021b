import type { Db } from '../db/index.ts';

/**
 * Writes one canary run as one statement (so one round trip and one commit, atomically): a
 * check_statuses row per check; each check's status, last/next runtime and last transition time;
 * and a `check.passed` / `check.failed` event for every check whose status flipped (a first run
 * counts as a flip only when it fails), published with publish_event() (jobs/README.md) inside
 * this statement so that a result and its event are never split by a crash. The event's
 * resource id is `<check id>/<run time>`, so a run recorded twice cannot notify twice.
 */
export interface RunResult {
  checkId: string;
  time: Date;
  duration: number;
  pass: boolean;
  message: string | null;
  error: string | null;
  detail: Record<string, unknown> | null;
}

export interface Transition {
  id: string;
  canary_id: string;
  name: string;
  previous: 'healthy' | 'unhealthy' | null;
  status: 'healthy' | 'unhealthy';
  time: string;
}

/**
 * What a check observed is stored as PostgreSQL text and jsonb, which cannot hold a NUL byte
 * (`invalid byte sequence for encoding "UTF8": 0x00`): a script printing binary or a body with \0
 * would fail the whole run's statement and cost every check of the canary its result. NULs
 * become the two characters `\0` (visible, and not mistaken for the end of the text), and sizes
 * are capped: messages and errors at `max` characters, a detail at DETAIL_MAX_CHARS of JSON.
 */
export function safeText(s: string | null | undefined, max: number): string | null {
  if (s === null || s === undefined) return null;
  const text = s.includes('\0') ? s.replaceAll('\0', '\\0') : s;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const DETAIL_MAX_CHARS = 64 * 1024;

function safeValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return safeText(v, DETAIL_MAX_CHARS);
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? v.toString() : v;
  if (depth > 20) return '[nested too deep]';
  if (Array.isArray(v)) return v.map((x) => safeValue(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[safeText(k, 200)!] = safeValue(x, depth + 1);
  return out;
}

/** A detail as jsonb text without NULs; one too large is replaced by a note saying so. */
export function safeDetail(detail: Record<string, unknown> | null): string | null {
  if (!detail) return null;
  const json = JSON.stringify(safeValue(detail, 0));
  return json.length > DETAIL_MAX_CHARS ? JSON.stringify({ truncated: true, size: json.length }) : json;
}

export async function recordResults(db: Db, results: RunResult[], nextRuntime: Date | null): Promise<Transition[]> {
  if (!results.length) return [];
  try {
    return await recordBatch(db, results, nextRuntime);
  } catch (err) {
    if (results.length === 1) throw err;
    // Something of one result the database refused: record them one by one, so only that
    // check loses its output (it is recorded as failing, saying why).
    const out: Transition[] = [];
    const lost: { checkId: string; err: Error }[] = [];
    for (const r of results) {
      try {
        out.push(...(await recordBatch(db, [r], nextRuntime)));
      } catch (one) {
        const error = `the result could not be stored: ${(one as Error).message}`;
        try {
          out.push(
            ...(await recordBatch(db, [{ ...r, pass: false, message: null, error, detail: null }], nextRuntime)),
          );
        } catch (again) {
          lost.push({ checkId: r.checkId, err: again as Error });
        }
      }
    }
    // the others are stored; the run still says which could not be
    if (lost.length) {
      const which = lost.map((l) => `check ${l.checkId}: ${l.err.message}`).join('; ');
      throw new Error(`results not stored: ${which}`, { cause: err });
    }
    return out;
  }
}

async function recordBatch(db: Db, results: RunResult[], nextRuntime: Date | null): Promise<Transition[]> {
  const { rows } = await db.query<Transition>(
    `WITH v AS (
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::boolean[], $5::text[], $6::text[], $7::jsonb[])
         AS v(check_id, time, duration, status, message, error, detail)
     ), ins AS (
       INSERT INTO check_statuses (check_id, time, duration, status, message, error, detail)
       SELECT check_id, time, duration, status, message, error, detail FROM v
       ON CONFLICT (check_id, time) DO NOTHING
     ), prev AS (
       SELECT c.id, c.status FROM checks c JOIN v ON v.check_id = c.id
     ), upd AS (
       UPDATE checks c SET
         status = CASE WHEN v.status THEN 'healthy' ELSE 'unhealthy' END,
         last_runtime = v.time,
         next_runtime = coalesce($8::timestamptz, c.next_runtime),
         last_transition_time = CASE WHEN prev.status IS DISTINCT FROM (CASE WHEN v.status THEN 'healthy' ELSE 'unhealthy' END)
                                     THEN v.time ELSE c.last_transition_time END
       FROM v JOIN prev ON prev.id = v.check_id
       WHERE c.id = v.check_id AND (c.last_runtime IS NULL OR c.last_runtime <= v.time)
       RETURNING c.id, c.canary_id, c.name, prev.status AS previous, c.status, v.time, v.message, v.error
     ), flipped AS (
       SELECT * FROM upd WHERE previous IS DISTINCT FROM status AND NOT (previous IS NULL AND status = 'healthy')
     ), ev AS (
       -- selected from below, so it runs once per flipped check
       SELECT f.*, publish_event(CASE WHEN f.status = 'healthy' THEN 'check.passed' ELSE 'check.failed' END,
         f.id || '/' || to_char(f.time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         jsonb_build_object('check_id', f.id, 'canary_id', f.canary_id, 'name', f.name, 'status', f.status,
           'previous', f.previous, 'time', f.time, 'message', f.message, 'error', f.error)) AS event
       FROM flipped f
     )
     SELECT id, canary_id, name, previous, status, time FROM ev`,
    [
      results.map((r) => r.checkId),
      results.map((r) => r.time.toISOString()),
      results.map((r) => r.duration),
      results.map((r) => r.pass),
      results.map((r) => safeText(r.message, 4000)),
      results.map((r) => safeText(r.error, 4000)),
      results.map((r) => safeDetail(r.detail)),
      nextRuntime?.toISOString() ?? null,
    ],
  );
  return rows;
}
