/** Row shapes of the incident screens (seed 001 section 3), as /api/db returns them. */
import type {
  EvidenceType,
  HypothesisStatus,
  HypothesisType,
  IncidentSeverity,
  IncidentStatus,
  IncidentType,
} from '@watchdeck/core';

export interface PersonRef {
  id: string;
  name: string | null;
  avatar: string | null;
}

export interface TeamRef {
  id: string;
  name: string;
  icon: string | null;
  spec?: Record<string, unknown> | null;
}

/** A row of the list (the incident_summary view). */
export interface IncidentListRow {
  id: string;
  incident_id: string;
  title: string;
  type: IncidentType;
  status: IncidentStatus;
  severity: IncidentSeverity;
  created_at: string;
  created_by: string | null;
  commander: PersonRef | null;
  /** people and teams, in the order they were added */
  responders: { id: string; name: string | null; avatar: string | null; icon: string | null; type: string }[];
}

export interface Evidence {
  id: string;
  hypothesis_id: string;
  type: EvidenceType;
  description: string | null;
  evidence: Record<string, unknown> | null;
  properties: Record<string, unknown> | null;
  check_id: string | null;
  component_id: string | null;
  config_id: string | null;
  config_change_id: string | null;
  config_analysis_id: string | null;
  definition_of_done: boolean;
  done: boolean;
  script: string | null;
  created_at: string;
  created_by: PersonRef | null;
  external_created_by: string | null;
  check: {
    id: string;
    name: string;
    type: string;
    status: string | null;
    icon: string | null;
    canary_id: string;
  } | null;
  component: { id: string; name: string; type: string | null; icon: string | null; status: string } | null;
  config: { id: string; name: string | null; type: string | null; health: string | null; status: string | null } | null;
  config_change: {
    id: string;
    change_type: string;
    summary: string | null;
    severity: string | null;
    config_id: string;
  } | null;
  config_analysis: {
    id: string;
    analyzer: string;
    analysis_type: string;
    severity: string;
    status: string;
    message: string | null;
    config_id: string;
  } | null;
}

export interface Hypothesis {
  id: string;
  incident_id: string;
  parent_id: string | null;
  title: string | null;
  type: HypothesisType;
  status: HypothesisStatus | null;
  created_at: string;
  created_by: PersonRef | null;
  evidences: Evidence[];
}

export interface IncidentDetail {
  id: string;
  incident_id: string;
  title: string;
  description: string | null;
  type: IncidentType;
  status: IncidentStatus;
  severity: IncidentSeverity;
  created_at: string;
  updated_at: string;
  acknowledged: string | null;
  resolved: string | null;
  closed: string | null;
  commander_id: string | null;
  communicator_id: string | null;
  creator: PersonRef | null;
  commander: PersonRef | null;
  communicator: PersonRef | null;
  hypotheses: Hypothesis[];
}

export interface Comment {
  id: string;
  incident_id: string;
  hypothesis_id: string | null;
  comment: string;
  created_at: string;
  created_by: PersonRef | null;
  external_created_by: string | null;
  /** set while an optimistic comment waits for the server */
  pending?: boolean;
}

export interface Responder {
  id: string;
  incident_id: string;
  type: string;
  properties: Record<string, unknown>;
  external_id: string | null;
  created_at: string;
  acknowledge_time: string | null;
  signoff_time: string | null;
  close_time: string | null;
  person: PersonRef | null;
  team: TeamRef | null;
  created_by: PersonRef | null;
  /** set by the server's dispatch of team responders (ticket systems, email) */
  dispatch_status?: 'pending' | 'sent' | 'logged' | 'failed' | null;
  dispatch_error?: string | null;
  external_url?: string | null;
}

export interface HistoryEntry {
  id: string;
  type: string;
  description: string | null;
  created_at: string;
  created_by: PersonRef | null;
  hypothesis: { id: string; title: string | null } | null;
  evidence: { id: string; type: string; description: string | null } | null;
  responder: { id: string; type: string; person: PersonRef | null; team: TeamRef | null } | null;
}
