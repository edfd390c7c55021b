/**
 * Manual links (seed 002 sections 2.6 and 3 "config link"): a person relates two config items;
 * the link is a config_relationships row with selector_id 'manual', the only kind that can be
 * unlinked (the others come from the source or the scraper's relationship rules and would come
 * back at the next scrape).
 */
import type { Queryable } from '#server/db/index.ts';

const MANUAL = 'manual';

export type LinkOutcome =
  | { ok: true; created: boolean; link: Record<string, unknown> }
  | { ok: false; status: 400 | 404 | 409; message: string; field?: string };

export async function createManualLink(
  db: Queryable,
  link: { config_id: string; related_id: string; relation?: string },
  personId: string | undefined,
): Promise<LinkOutcome> {
  if (link.config_id === link.related_id)
    return {
      ok: false,
      status: 400,
      field: 'related_id',
      message: 'related_id must be another config item than config_id',
    };
  const found = await db.query<{ id: string }>(`SELECT id FROM config_items WHERE id = ANY($1::uuid[])`, [
    [link.config_id, link.related_id],
  ]);
  for (const f of ['config_id', 'related_id'] as const)
    if (!found.rows.some((r) => r.id === link[f]))
      return { ok: false, status: 404, field: f, message: `Config item ${link[f]} not found` };
  const r = await db.query<Record<string, unknown> & { inserted: boolean }>(
    `INSERT INTO config_relationships (config_id, related_id, relation, selector_id, created_by)
     VALUES ($1, $2, $3, '${MANUAL}', $4)
     ON CONFLICT (config_id, related_id, selector_id) DO UPDATE
       SET relation = excluded.relation, deleted_at = NULL
     RETURNING config_id, related_id, relation, selector_id, created_by, created_at, updated_at, deleted_at,
       (xmax = 0) AS inserted`,
    [link.config_id, link.related_id, link.relation ?? '', personId ?? null],
  );
  const { inserted, ...row } = r.rows[0];
  return { ok: true, created: inserted, link: row };
}

export async function deleteManualLink(
  db: Queryable,
  configId: string,
  relatedId: string,
): Promise<{ ok: true } | { ok: false; status: 404 | 409; message: string }> {
  const del = await db.query(
    `DELETE FROM config_relationships WHERE config_id = $1 AND related_id = $2 AND selector_id = '${MANUAL}'`,
    [configId, relatedId],
  );
  if (del.rowCount > 0) return { ok: true };
  const other = await db.query(
    `SELECT 1 FROM config_relationships WHERE config_id = $1 AND related_id = $2 AND deleted_at IS NULL`,
    [configId, relatedId],
  );
  return other.rows.length
    ? { ok: false, status: 409, message: 'Only manual links can be unlinked: this link comes from a scraper' }
    : { ok: false, status: 404, message: `No manual link from ${configId} to ${relatedId}` };
}
