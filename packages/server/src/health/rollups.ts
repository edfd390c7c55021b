import type { Db, Queryable } from '../db/index.ts';

/**
 * Hourly and daily roll-ups of check_statuses (tables in migration 0015). Each pass recomputes,
 * in one transaction, every hour from a little before the previous watermark up to now (from the
 * raw rows) and the days those hours fall in (from the hourly rows), then moves the watermark to
 * the pass's time. Buckets are UTC. The current hour and day are partial rows covering everything
 * before the watermark; readers add the raw rows from the watermark on (summary.ts, graph.ts).
 *
 * Runs recorded late (a slow check commits after a pass) are caught by the overlap: each pass
 * recomputes from MARGIN before the previous watermark.
 */
const ROLLUP_TIER = 'rollup';
/** a run is recorded at most this long after its start time (the longest check timeout) */
const MARGIN = '10 minutes';
/** hourly rows are kept this long; daily rows are kept */
const HOURLY_RETENTION_DAYS = 400;

export async function rollupWatermark(q: Queryable): Promise<Date | null> {
  const { rows } = await q.query<{ until: Date }>(`SELECT until FROM check_rollup_state WHERE tier = $1`, [
    ROLLUP_TIER,
  ]);
  return rows[0] ? new Date(rows[0].until) : null;
}

export interface RollupStats {
  from: Date | null;
  until: Date;
  hours: number;
  days: number;
}

export async function rollUp(db: Db): Promise<RollupStats> {
  return db.transaction(async (tx) => {
    // The first pass covers all history (an upgraded database, weeks of runs): not bound by the
    // statement timeout meant for requests (WATCHDECK_DB_STATEMENT_TIMEOUT), or it never finishes
    await tx.query(`SET LOCAL statement_timeout = 0`);
    // Only one pass at a time across replicas; a second one waits and then redoes little.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('watchdeck.health.rollup'))`);
    const { rows } = await tx.query<{ from_hour: Date | null; until: Date }>(
      `SELECT date_trunc('hour', coalesce(
                (SELECT until FROM check_rollup_state WHERE tier = $1) - interval '${MARGIN}',
                (SELECT min(time) FROM check_statuses)), 'UTC') AS from_hour,
              now() AS until`,
      [ROLLUP_TIER],
    );
    const { from_hour: fromHour, until } = rows[0];
    let hours = 0;
    let days = 0;
    if (fromHour) {
      await tx.query(`DELETE FROM check_statuses_1h WHERE bucket >= $1`, [fromHour]);
      hours = (
        await tx.query(
          `INSERT INTO check_statuses_1h (check_id, bucket, passed, failed, duration_sum, duration_min, duration_max, p95, p97, p99)
           SELECT check_id, hour, passed, failed, total, dmin, dmax, pct[1], pct[2], pct[3]
           FROM (
             SELECT check_id, date_trunc('hour', time, 'UTC') AS hour,
               count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
               sum(duration) AS total, min(duration) AS dmin, max(duration) AS dmax,
               percentile_disc(ARRAY[0.95, 0.97, 0.99]) WITHIN GROUP (ORDER BY duration) AS pct
             FROM check_statuses WHERE time >= $1 AND time < $2
             GROUP BY 1, 2
           ) h`,
          [fromHour, until],
        )
      ).rowCount;
      const fromDay = `date_trunc('day', $1::timestamptz, 'UTC')`;
      await tx.query(`DELETE FROM check_statuses_1d WHERE bucket >= ${fromDay}`, [fromHour]);
      days = (
        await tx.query(
          `INSERT INTO check_statuses_1d (check_id, bucket, passed, failed, duration_sum, duration_min, duration_max, p95, p97, p99)
           SELECT check_id, date_trunc('day', bucket, 'UTC'), sum(passed), sum(failed), sum(duration_sum), min(duration_min), max(duration_max),
             percentile_disc(0.95) WITHIN GROUP (ORDER BY p95),
             percentile_disc(0.97) WITHIN GROUP (ORDER BY p97),
             percentile_disc(0.99) WITHIN GROUP (ORDER BY p99)
           FROM check_statuses_1h WHERE bucket >= ${fromDay}
           GROUP BY 1, 2`,
          [fromHour],
        )
      ).rowCount;
    }
    await tx.query(
      `INSERT INTO check_rollup_state (tier, until) VALUES ($1, $2) ON CONFLICT (tier) DO UPDATE SET until = EXCLUDED.until`,
      [ROLLUP_TIER, until],
    );
    return { from: fromHour ? new Date(fromHour) : null, until: new Date(until), hours, days };
  });
}

/**
 * Retention: raw runs older than `retentionDays` go (never ones not yet rolled up), hourly
 * roll-ups after HOURLY_RETENTION_DAYS; daily roll-ups stay, so year-long ranges keep working.
 */
export async function pruneCheckStatuses(db: Db, retentionDays: number): Promise<{ raw: number; hourly: number }> {
  // the first prune after an upgrade may delete millions of rows: no statement timeout (as rollUp)
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL statement_timeout = 0`);
    const raw = await tx.query(
      `DELETE FROM check_statuses WHERE time < least(now() - ($1::int * interval '1 day'),
         coalesce((SELECT until FROM check_rollup_state WHERE tier = $2), '-infinity'::timestamptz) - interval '${MARGIN}')`,
      [retentionDays, ROLLUP_TIER],
    );
    const hourly = await tx.query(`DELETE FROM check_statuses_1h WHERE bucket < now() - ($1::int * interval '1 day')`, [
      Math.max(HOURLY_RETENTION_DAYS, retentionDays),
    ]);
    return { raw: raw.rowCount, hourly: hourly.rowCount };
  });
}
