import type { Db } from '../db/index.ts';
import { rollupWatermark } from './rollups.ts';
import type { TimeWindow } from './time-range.ts';

/**
 * A check's runs over a window in at most `count` points (GET /api/canary/api/graph; seed 000
 * "Canary graph points 300"). The bucket is the window divided by count, rounded up to a whole
 * second, and read from the coarsest source that still resolves it: raw runs for buckets under an
 * hour, hourly roll-ups under a day, daily roll-ups beyond (plus the raw runs after the roll-up
 * watermark). A point: {time (bucket start), passed, failed, duration (mean ms)}; empty buckets
 * are left out.
 */
interface GraphPoint {
  time: string;
  passed: number;
  failed: number;
  duration: number;
}

export interface Graph {
  status: GraphPoint[];
  bucket_seconds: number;
  source: 'raw' | '1h' | '1d';
  start: string;
  end: string;
}

const HOUR = 3600;
const DAY = 86_400;

export async function checkGraph(db: Db, checkId: string, window: TimeWindow, count: number): Promise<Graph> {
  const spanS = (window.end.getTime() - window.start.getTime()) / 1000;
  let bucket = Math.max(1, Math.ceil(spanS / count));
  const source = bucket < HOUR ? 'raw' : bucket < DAY ? '1h' : '1d';
  if (source === '1h') bucket = Math.ceil(bucket / HOUR) * HOUR;
  if (source === '1d') bucket = Math.ceil(bucket / DAY) * DAY;
  const params: unknown[] = [checkId, window.start.toISOString(), window.end.toISOString(), bucket];
  const slot = (col: string) => `to_timestamp(floor(extract(epoch FROM ${col}) / $4) * $4)`;
  let sql: string;
  if (source === 'raw') {
    sql = `SELECT ${slot('time')} AS time, count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed,
             round(avg(duration))::int AS duration
           FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time < $3
           GROUP BY 1 ORDER BY 1`;
  } else {
    params.push(((await rollupWatermark(db)) ?? new Date(0)).toISOString());
    const table = source === '1h' ? 'check_statuses_1h' : 'check_statuses_1d';
    const unit = source === '1h' ? 'hour' : 'day';
    sql = `SELECT ${slot('t')} AS time, sum(passed)::int AS passed, sum(failed)::int AS failed,
             round(sum(duration_sum)::numeric / nullif(sum(passed + failed), 0))::int AS duration
           FROM (
             SELECT bucket AS t, passed, failed, duration_sum FROM ${table}
             WHERE check_id = $1 AND bucket >= date_trunc('${unit}', $2::timestamptz, 'UTC') AND bucket < $3 AND bucket < $5
             UNION ALL
             SELECT time, status::int, (NOT status)::int, duration FROM check_statuses
             WHERE check_id = $1 AND time >= greatest($2::timestamptz, $5::timestamptz) AND time < $3
           ) u
           GROUP BY 1 ORDER BY 1`;
  }
  const { rows } = await db.query<{ time: Date; passed: number; failed: number; duration: number | null }>(sql, params);
  return {
    status: rows.map((r) => ({
      time: new Date(r.time).toISOString(),
      passed: r.passed,
      failed: r.failed,
      duration: r.duration ?? 0,
    })),
    bucket_seconds: bucket,
    source,
    start: window.start.toISOString(),
    end: window.end.toISOString(),
  };
}
