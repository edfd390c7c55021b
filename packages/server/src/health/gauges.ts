import type { Db } from '../db/index.ts';

/** What names a check in metrics; the same object while none of it changes (see identities). */
export interface CheckIdentity {
  id: string;
  name: string;
  namespace: string;
  type: string;
  canary: string;
  labels: Record<string, unknown> | null;
}

/** One live check as Prometheus reads it (metrics/): identity, status, last latency, 24 h uptime. */
export interface CheckGauge {
  identity: CheckIdentity;
  /** null before the first run */
  healthy: boolean | null;
  /** the last run's duration, ms */
  latencyMs: number | null;
  /** passing share of the runs in the last 24 hours of roll-ups; null with none */
  uptime: number | null;
}

/**
 * Kept per database handle, so a scrape's one statement reads only what runs change (status, last
 * duration) and two numbers that say whether the rest is still current:
 *   - identities (name, namespace, type, canary, labels) by check id, read again when
 *     check_feed_state.version moves (it moves with every change of those: health/sql/20-health.sql)
 *     or a check appears that is not known yet;
 *   - uptime from the hourly roll-ups, summed again when a roll-up pass moved the watermark
 *     (every 5 minutes), not per scrape: 5,000 checks are 120,000 roll-up rows.
 */
interface Cache {
  version?: string;
  identities?: Promise<Map<string, CheckIdentity>>;
  watermark?: string;
  uptime?: Promise<Map<string, number>>;
}
const caches = new WeakMap<Db, Cache>();

const LIVE = `FROM checks c JOIN canaries ca ON ca.id = c.canary_id AND ca.deleted_at IS NULL WHERE c.deleted_at IS NULL`;

async function readIdentities(db: Db): Promise<Map<string, CheckIdentity>> {
  const { rows } = await db.query<CheckIdentity>(
    `SELECT c.id, c.name, c.namespace, c.type, ca.name AS canary, c.labels ${LIVE}`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

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

/** A cached read that is forgotten when it fails, so the next scrape tries again. */
function remember<T>(cache: Cache, key: 'identities' | 'uptime', read: Promise<T>): Promise<T> {
  (cache as Record<string, unknown>)[key] = read;
  read.catch(() => delete cache[key]);
  return read;
}

export async function checkGauges(db: Db): Promise<CheckGauge[]> {
  const { rows } = await db.query<{
    id: string;
    healthy: boolean | null;
    latencyMs: number | null;
    watermark: string | null;
    version: string;
  }>(
    `SELECT c.id, CASE c.status WHEN 'healthy' THEN true WHEN 'unhealthy' THEN false END AS healthy,
       s.duration AS "latencyMs",
       (SELECT until::text FROM check_rollup_state WHERE tier = 'rollup') AS watermark,
       (SELECT version::text FROM check_feed_state) AS version
     FROM checks c
     JOIN canaries ca ON ca.id = c.canary_id AND ca.deleted_at IS NULL
     -- one index probe per check: a plain join lets the planner hash all of check_statuses
     LEFT JOIN LATERAL (
       SELECT s.duration FROM check_statuses s WHERE s.check_id = c.id AND s.time = c.last_runtime LIMIT 1
     ) s ON true
     WHERE c.deleted_at IS NULL`,
  );
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = {}));
  const version = rows[0]?.version ?? '';
  const watermark = rows[0]?.watermark ?? '';
  let identities = cache.identities && cache.version === version ? await cache.identities : undefined;
  if (!identities || rows.some((r) => !identities!.has(r.id))) {
    cache.version = version;
    identities = await remember(cache, 'identities', readIdentities(db));
  }
  if (!cache.uptime || cache.watermark !== watermark) {
    cache.watermark = watermark;
    remember(cache, 'uptime', readUptime(db));
  }
  const uptime = await cache.uptime!;
  const out: CheckGauge[] = [];
  for (const r of rows) {
    const identity = identities.get(r.id);
    // created after the identities were read, in the same instant: shown from the next scrape
    if (identity) out.push({ identity, healthy: r.healthy, latencyMs: r.latencyMs, uptime: uptime.get(r.id) ?? null });
  }
  return out;
}
