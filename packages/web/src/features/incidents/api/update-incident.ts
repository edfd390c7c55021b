import { db, unwrap } from '#web/lib/api.ts';
import type { IncidentDetail } from './types.ts';

export async function updateIncident(
  id: string,
  patch: Partial<
    Pick<IncidentDetail, 'severity' | 'type' | 'commander_id' | 'communicator_id' | 'title' | 'description'>
  >,
) {
  unwrap(await db.from('incidents').update(patch).eq('id', id));
}
