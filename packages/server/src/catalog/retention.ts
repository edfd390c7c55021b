/**
 * Retention of each scraper's catalog, as its spec's `retention` says (seed 002 section 3):
 *   changes: [{name: <change type>, age: 30d, count: 50}]  changes of that type older than age
 *            are deleted, and each item keeps at most the newest count of them;
 *   types:   [{name: <item type>, createdAge, updatedAge, deletedAge}]  items of that type created
 *            longer ago than createdAge, or not updated for updatedAge, are soft-deleted; items
 *            deleted longer ago than deletedAge are removed with their changes.
 * Run hourly as housekeeping (CatalogRetention in job history).
 */
import { parseDuration } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';

interface RetentionSpec {
  changes?: { name: string; age?: string; count?: number }[];
  types?: { name: string; createdAge?: string; updatedAge?: string; deletedAge?: string }[];
}

export interface RetentionOutcome {
  changes: number;
  deleted: number;
  removed: number;
}

const seconds = (d: string | undefined): number | undefined => {
  if (!d) return undefined;
  const ms = parseDuration(d);
  return ms && ms > 0 ? ms / 1000 : undefined;
};

/** Applies one scraper's retention; answers what it deleted. */
async function applyRetention(db: Db, scraperId: string, spec: RetentionSpec): Promise<RetentionOutcome> {
  const out: RetentionOutcome = { changes: 0, deleted: 0, removed: 0 };
  await db.transaction(async (tx) => {
    for (const c of spec.changes ?? []) {
      const age = seconds(c.age);
      if (age) {
        const r = await tx.query(
          `DELETE FROM config_changes cc USING config_items ci
           WHERE ci.id = cc.config_id AND ci.scraper_id = $1 AND cc.change_type = $2
             AND cc.created_at < now() - make_interval(secs => $3)`,
          [scraperId, c.name, age],
        );
        out.changes += r.rowCount;
      }
      if (c.count !== undefined && c.count >= 0) {
        const r = await tx.query(
          `DELETE FROM config_changes cc WHERE cc.id IN (
             SELECT id FROM (
               SELECT x.id, row_number() OVER (PARTITION BY x.config_id ORDER BY x.created_at DESC, x.id DESC) AS n
               FROM config_changes x JOIN config_items ci ON ci.id = x.config_id
               WHERE ci.scraper_id = $1 AND x.change_type = $2) ranked
             WHERE ranked.n > $3)`,
          [scraperId, c.name, c.count],
        );
        out.changes += r.rowCount;
      }
    }
    for (const t of spec.types ?? []) {
      const created = seconds(t.createdAge);
      const updated = seconds(t.updatedAge);
      if (created || updated) {
        const r = await tx.query(
          `UPDATE config_items SET deleted_at = now(), delete_reason = 'retention'
           WHERE scraper_id = $1 AND type = $2 AND deleted_at IS NULL
             AND (($3::float8 IS NOT NULL AND created_at < now() - make_interval(secs => $3))
               OR ($4::float8 IS NOT NULL AND updated_at < now() - make_interval(secs => $4)))`,
          [scraperId, t.name, created ?? null, updated ?? null],
        );
        out.deleted += r.rowCount;
      }
      const deleted = seconds(t.deletedAge);
      if (deleted) {
        const r = await tx.query(
          `DELETE FROM config_items WHERE scraper_id = $1 AND type = $2 AND deleted_at < now() - make_interval(secs => $3)`,
          [scraperId, t.name, deleted],
        );
        out.removed += r.rowCount;
      }
    }
  });
  return out;
}

/** Every live scraper with retention fields. */
export async function applyAllRetention(db: Db): Promise<RetentionOutcome & { scrapers: number }> {
  const { rows } = await db.query<{ id: string; retention: RetentionSpec }>(
    `SELECT id, spec->'retention' AS retention FROM config_scrapers
     WHERE deleted_at IS NULL AND jsonb_typeof(spec->'retention') = 'object'`,
  );
  const total = { changes: 0, deleted: 0, removed: 0, scrapers: rows.length };
  for (const r of rows) {
    const o = await applyRetention(db, r.id, r.retention);
    total.changes += o.changes;
    total.deleted += o.deleted;
    total.removed += o.removed;
  }
  return total;
}
