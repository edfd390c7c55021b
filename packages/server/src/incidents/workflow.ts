/**
 * The incident vocabularies and status workflow live in @watchdeck/core (shared with the web).
 * The database enforces the same table (migrations/0102_incident_workflow.sql,
 * incident_status_moves()); keep the two in step.
 */
export {
  INCIDENT_STATUSES,
  allowedStatusMoves,
  severityFromCode,
  type IncidentStatus,
  SEVERITIES as INCIDENT_SEVERITIES,
  INCIDENT_TYPES,
  HYPOTHESIS_STATUSES,
} from '@watchdeck/core';
