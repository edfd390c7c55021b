/**
 * The incident vocabularies and status workflow live in @watchdeck/core (shared with the web).
 * The database enforces the same moves (incident_status_moves() in sql/50-incidents.sql: the
 * dropdown's table plus the header toggle's, core acceptedStatusMoves); keep the two in step.
 */
export { INCIDENT_STATUSES, acceptedStatusMoves, statusToggleTarget } from '@watchdeck/core';
