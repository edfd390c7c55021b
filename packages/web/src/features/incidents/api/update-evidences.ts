import { db, unwrap } from '#web/lib/api.ts';

export async function updateEvidences(
  ids: string[],
  patch: { definition_of_done?: boolean; done?: boolean; script?: string | null; description?: string },
) {
  unwrap(await db.from('evidences').update(patch).in('id', ids));
}
