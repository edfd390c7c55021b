import type { Db } from '../db/index.ts';

/** One live check as Prometheus reads it (metrics/): identity, status, last latency, 24 h uptime. */
export interface CheckGauge {
  id: string;
  name: string;
  namespace: string;
  type: string;
  canary: string;
  labels: Record<string, unknown> | null;
  /** null before the first run */
  healthy: boolean | null;
  /** the last run's duration, ms */
  latencyMs: number | null;
  /** passing share of the runs in the last 24 hours of roll-ups; null with none */
  uptime: number | null;
}

/**
 * Uptime comes from the hourly roll-ups, re-read only when a roll-up pass moved the watermark
 * (every 5 minutes): per scrape, one statement reads the checks, their last run and the
 * watermark; the 120,000 roll-up rows of 5,000 checks are summed once per pass, not per scrape.
 */
const uptimeCache = new WeakMap<Db, { watermark: string; byCheck: Promise<Map<string, number>> }>();

async function readUptime(db: Db): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: string; passed: number; failed: number }>(
    `SELECT check_id AS id, sum(passed)::int8 AS passed, sum(failed)::int8 AS failed
     FROM check_statuses_1h WHERE bucket >= now() - interval '24 hours' GROUP BY check_id`,
  );
  const out = new Map<string, number>();
  for (const r of rows) {
    const total = Number(r.passed) + Number(r.failed);
    if (total > 0) out.set(r.id, Number(r.passed) / total);
  }
  return out;
}

export async function checkGauges(db: Db): Promise<CheckGauge[]> {
  const { rows } = await db.query<Omit<CheckGauge, 'uptime'> & { watermark: string | null }>(
    `SELECT c.id, c.name, c.namespace, c.type, ca.name AS canary, c.labels,
       CASE c.status WHEN 'healthy' THEN true WHEN 'unhealthy' THEN false END AS healthy,
       s.duration AS "latencyMs",
       (SELECT until::text FROM check_rollup_state WHERE tier = 'rollup') AS watermark
     FROM checks c
     JOIN canaries ca ON ca.id = c.canary_id AND ca.deleted_at IS NULL
     LEFT JOIN check_statuses s ON s.check_id = c.id AND s.time = c.last_runtime
     WHERE c.deleted_at IS NULL`,
  );
  const watermark = rows[0]?.watermark ?? '';
  let cached = uptimeCache.get(db);
  if (!cached || cached.watermark !== watermark) {
    cached = { watermark, byCheck: readUptime(db) };
    uptimeCache.set(db, cached);
    cached.byCheck.catch(() => uptimeCache.delete(db));
  }
  const uptime = await cached.byCheck;
  return rows.map(({ watermark: _w, ...r }) => ({ ...r, uptime: uptime.get(r.id) ?? null }));
}
