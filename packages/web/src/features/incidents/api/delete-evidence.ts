import { db, unwrap } from '#web/lib/api.ts';

export async function deleteEvidence(id: string) {
  unwrap(await db.from('evidences').delete().eq('id', id));
}
