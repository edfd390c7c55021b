import { db, unwrap } from '#web/lib/api.ts';

export async function createComment(row: {
  incident_id: string;
  hypothesis_id: string;
  comment: string;
  created_by: string;
}) {
  const rows = unwrap(await db.from('comments').insert(row).select('id,created_at')) as {
    id: string;
    created_at: string;
  }[];
  return rows[0];
}
