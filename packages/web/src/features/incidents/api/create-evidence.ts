import { db, unwrap } from '#web/lib/api.ts';
import type { EvidenceType } from '@watchdeck/core';

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
