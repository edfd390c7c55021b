import { db, unwrap } from '#web/lib/api.ts';
import type { HypothesisStatus } from '@watchdeck/core';

export async function updateHypothesis(id: string, patch: { title?: string; status?: HypothesisStatus }) {
  unwrap(await db.from('hypotheses').update(patch).eq('id', id));
}
