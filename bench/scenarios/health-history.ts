import type { Db } from '#server/db/index.ts';
import { syncPendingCanaries } from '#server/health/sync.ts';

export interface HistoryOptions {
  checks: number;
  /** seconds between two runs of a check (`@every <n>s`) */
  everySec: number;
  /** minutes of history written before the server starts */
  minutes: number;
  /** base URL of the local HTTP target the checks call */
  targetUrl: string;
}

/**
 * `checks` HTTP checks `@every <n>s` (one canary each, as the scheduling scenario has them) and the
 * tables as `minutes` of the engine running them would have left them, written with
 * generate_series instead of waiting: every run's check_statuses row (1 in 50 failing), job
 * history row (inserted RUNNING, then updated, as runJob does) and scheduler claim, and each
 * run's UPDATE of its check (the dead row versions a table collects between vacuums). Nothing is
 * vacuumed or analysed afterwards: on PGlite nothing would have done so.
 */
export async function loadHealthHistory(db: Db, o: HistoryOptions): Promise<void> {
  const runs = Math.floor((o.minutes * 60) / o.everySec);
  await db.query(
    `INSERT INTO canaries (name, namespace, schedule, spec)
     SELECT 'bench-' || g, 'bench', '@every ${o.everySec}s',
       jsonb_build_object('http', jsonb_build_array(jsonb_build_object('name', 'target ' || g, 'url', $1::text || '/ok?c=' || g, 'responseCodes', jsonb_build_array(200))))
     FROM generate_series(1, $2::int) g`,
    [o.targetUrl, o.checks],
  );
  await syncPendingCanaries(db, (err) => {
    throw err;
  });
  const step = `make_interval(secs => $1::int * s)`;
  await db.query(
    `INSERT INTO check_statuses (check_id, time, duration, status, message)
     SELECT c.id, now() - ${step}, 2 + abs(hashtext(c.id::text || s)) % 40, abs(hashtext(c.id::text || s)) % 50 <> 0, 'HTTP 200'
     FROM checks c CROSS JOIN generate_series(1, $2::int) s WHERE c.deleted_at IS NULL`,
    [o.everySec, runs],
  );
  await db.query(
    `INSERT INTO scheduler_claims (job_key, slot)
     SELECT 'canary:' || ca.id, now() - ${step} FROM canaries ca CROSS JOIN generate_series(1, $2::int) s`,
    [o.everySec, runs],
  );
  await db.query(
    `INSERT INTO job_history (name, resource_type, resource_id, agent_id, status, time_start, created_at)
     SELECT 'CanaryRun', 'canary', ca.id, ca.agent_id, 'RUNNING', now() - ${step}, now() - ${step}
     FROM canaries ca CROSS JOIN generate_series(1, $2::int) s`,
    [o.everySec, runs],
  );
  await db.query(
    `UPDATE job_history SET status = 'SUCCESS', success_count = 1, error_count = 0, duration_millis = 5,
       details = '{}'::jsonb, time_end = time_start + interval '5 milliseconds' WHERE name = 'CanaryRun'`,
  );
  // one UPDATE per run, oldest first, as recordResults makes them
  for (let s = runs; s >= 1; s--) {
    await db.query(
      `UPDATE checks SET status = 'healthy', last_runtime = now() - make_interval(secs => $1::int),
         next_runtime = now() - make_interval(secs => $1::int) + make_interval(secs => $2::int),
         last_transition_time = coalesce(last_transition_time, now() - make_interval(secs => $1::int))
       WHERE deleted_at IS NULL`,
      [s * o.everySec, o.everySec],
    );
  }
}
