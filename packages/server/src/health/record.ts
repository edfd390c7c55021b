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

const clip = (s: string | null, n: number) => (s && s.length > n ? `${s.slice(0, n - 1)}…` : s);

export async function recordResults(db: Db, results: RunResult[], nextRuntime: Date | null): Promise<Transition[]> {
  if (!results.length) return [];
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
      results.map((r) => clip(r.message, 4000)),
      results.map((r) => clip(r.error, 4000)),
      results.map((r) => (r.detail ? JSON.stringify(r.detail) : null)),
      nextRuntime?.toISOString() ?? null,
    ],
  );
  return rows;
}
