import { db, unwrap } from '#web/lib/api.ts';

export interface NewResponder {
  incident_id: string;
  type: string;
  created_by: string;
  person_id?: string;
  team_id?: string;
  properties: Record<string, unknown>;
}

export async function createResponder(row: NewResponder) {
  unwrap(await db.from('responders').insert(row).select('*'));
}
