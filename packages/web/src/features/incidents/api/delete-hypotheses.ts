import { db, unwrap } from '#web/lib/api.ts';

/** Deletes hypotheses; their sub-hypotheses, comments and evidences go with them (one statement). */
export async function deleteHypotheses(ids: string[]) {
  unwrap(await db.from('hypotheses').delete().in('id', ids));
}
