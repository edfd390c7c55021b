import { db, unwrap } from '#web/lib/api.ts';

/**
 * The incident screens write through /api/db (seed 001 section 7), one call per file in this
 * folder (create-*, update-*, delete-*, acknowledge-*). Multi-row writes go through the database
 * functions of migration 0130 so they happen in one transaction. Callers refresh the page
 * afterwards (useRefreshIncident).
 */
export interface NewIncident {
  title: string;
  description: string;
  type: string;
  severity: string;
  status: string;
}

/** The incident and its root hypothesis, in one transaction. */
export async function createIncident(v: NewIncident): Promise<{ id: string }> {
  const rows = unwrap(await db.rpc('create_incident', { ...v }).select('id')) as { id: string }[];
  return rows[0];
}
