import { db, unwrap } from '#web/lib/api.ts';

/** A status move; evidences chosen as contributing factors join the definition of done first. */
export async function updateIncidentStatus(id: string, status: string, definitionOfDone: string[] = []) {
  unwrap(await db.rpc('update_incident_status', { id, status, definition_of_done: definitionOfDone }));
}
