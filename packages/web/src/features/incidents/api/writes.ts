import { db, unwrap } from '../../../lib/api.ts';
import type { EvidenceType, HypothesisStatus, HypothesisType } from '@watchdeck/core';
import type { IncidentDetail } from './types.ts';

/**
 * The incident screens' writes through /api/db (seed 001 section 7). Multi-row writes go through
 * the database functions of migration 0130 so they happen in one transaction. Callers refresh
 * the page afterwards (useRefreshIncident).
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

export async function updateIncident(id: string, patch: Partial<Pick<IncidentDetail, 'severity' | 'type' | 'commander_id' | 'communicator_id' | 'title' | 'description'>>) {
  unwrap(await db.from('incidents').update(patch).eq('id', id));
}

/** A status move; evidences chosen as contributing factors join the definition of done first. */
export async function updateIncidentStatus(id: string, status: string, definitionOfDone: string[] = []) {
  unwrap(await db.rpc('update_incident_status', { id, status, definition_of_done: definitionOfDone }));
}

export async function createHypothesis(row: { incident_id: string; parent_id: string | null; title: string; type: HypothesisType; created_by: string }) {
  const rows = unwrap(await db.from('hypotheses').insert({ ...row, status: 'possible' }).select('id')) as { id: string }[];
  return rows[0];
}

export async function updateHypothesis(id: string, patch: { title?: string; status?: HypothesisStatus }) {
  unwrap(await db.from('hypotheses').update(patch).eq('id', id));
}

/** Deletes hypotheses; their sub-hypotheses, comments and evidences go with them (one statement). */
export async function deleteHypotheses(ids: string[]) {
  unwrap(await db.from('hypotheses').delete().in('id', ids));
}

export interface NewEvidence {
  hypothesis_id: string;
  type: EvidenceType;
  description: string | null;
  created_by: string;
  check_id?: string;
  component_id?: string;
  config_id?: string;
  config_change_id?: string;
  config_analysis_id?: string;
  evidence?: Record<string, unknown>;
  definition_of_done?: boolean;
  script?: string | null;
}

export async function createEvidence(row: NewEvidence) {
  unwrap(await db.from('evidences').insert(row));
}

export async function updateEvidences(ids: string[], patch: { definition_of_done?: boolean; done?: boolean; script?: string | null; description?: string }) {
  unwrap(await db.from('evidences').update(patch).in('id', ids));
}

export async function deleteEvidence(id: string) {
  unwrap(await db.from('evidences').delete().eq('id', id));
}

export async function createComment(row: { incident_id: string; hypothesis_id: string; comment: string; created_by: string }) {
  const rows = unwrap(await db.from('comments').insert(row).select('id,created_at')) as { id: string; created_at: string }[];
  return rows[0];
}

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

/** Responders are removed by setting deleted_at (seed 001 section 7). */
export async function deleteResponder(id: string) {
  unwrap(await db.from('responders').update({ deleted_at: new Date().toISOString() }).eq('id', id));
}

export async function acknowledgeResponder(id: string) {
  unwrap(await db.from('responders').update({ acknowledge_time: new Date().toISOString() }).eq('id', id));
}
