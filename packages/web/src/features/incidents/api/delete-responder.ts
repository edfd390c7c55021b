import { db, unwrap } from '#web/lib/api.ts';

/** Responders are removed by setting deleted_at (seed 001 section 7). */
export async function deleteResponder(id: string) {
  unwrap(await db.from('responders').update({ deleted_at: new Date().toISOString() }).eq('id', id));
}
