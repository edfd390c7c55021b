import { db, unwrap } from '#web/lib/api.ts';
import type { HypothesisType } from '@watchdeck/core';

export async function createHypothesis(row: {
  incident_id: string;
  parent_id: string | null;
  title: string;
  type: HypothesisType;
  created_by: string;
}) {
  const rows = unwrap(
    await db
      .from('hypotheses')
      .insert({ ...row, status: 'possible' })
      .select('id'),
  ) as { id: string }[];
  return rows[0];
}
