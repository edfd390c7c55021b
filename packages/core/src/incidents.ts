/**
 * Incident vocabularies, the status workflow and the responder types of seed 001 (sections 3-5)
 * and seed 000 section 9. Shared by the web (what to offer) and the server (what to accept); the
 * database enforces the same table (server migrations 0102_incident_workflow.sql).
 */
import { HYPOTHESIS_STATUSES, INCIDENT_TYPES, SEVERITIES } from './constants.ts';

export const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export type IncidentSeverity = (typeof SEVERITIES)[number];
export type IncidentType = (typeof INCIDENT_TYPES)[number];
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];
export const HYPOTHESIS_TYPES = ['root', 'factor', 'solution'] as const;
export type HypothesisType = (typeof HYPOTHESIS_TYPES)[number];

/** The status dropdown's moves (seed 001 section 4): from -> the statuses it offers. */
const MOVES: Record<IncidentStatus, readonly IncidentStatus[]> = {
  new: INCIDENT_STATUSES,
  open: ['open', 'investigating', 'mitigated', 'resolved', 'closed'],
  investigating: ['investigating', 'mitigated', 'resolved', 'closed'],
  mitigated: ['resolved', 'closed', 'open'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};

export function allowedStatusMoves(from: string): readonly IncidentStatus[] {
  return MOVES[from as IncidentStatus] ?? [];
}

/**
 * The detail header's toggle (seed 001 section 2): it closes an open incident and reopens any
 * other status, so every status but open offers 'Reopen Incident'.
 */
export function statusToggleTarget(status: IncidentStatus): 'open' | 'closed' {
  return status === 'open' ? 'closed' : 'open';
}

/**
 * Every move the server accepts: the dropdown's table plus the toggle's. The toggle adds one move
 * the table lacks, investigating -> open (the database's incident_status_moves() agrees).
 */
export function acceptedStatusMoves(from: string): readonly IncidentStatus[] {
  const moves = allowedStatusMoves(from);
  if (!moves.length) return moves;
  const toggle = statusToggleTarget(from as IncidentStatus);
  return moves.includes(toggle) ? moves : [...moves, toggle];
}

/** Choosing one of these first asks for contributing factors (the definition of done). */
export const STATUSES_ASKING_FOR_FACTORS: readonly IncidentStatus[] = ['mitigated', 'resolved'];

/** Severity numeric codes: 1 medium, 2 high, 3 blocker, 4 critical, anything else low. */
export function severityFromCode(code: number): IncidentSeverity {
  return ({ 1: 'medium', 2: 'high', 3: 'blocker', 4: 'critical' } as const)[code as 1 | 2 | 3 | 4] ?? 'low';
}

/** How the vocabularies read on every screen (the Create modal, the list, Link to Incident). */
export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  new: 'New',
  open: 'Open',
  investigating: 'Investigating',
  mitigated: 'Mitigated',
  resolved: 'Resolved',
  closed: 'Closed',
};

export const SEVERITY_LABELS: Record<IncidentSeverity, string> = {
  info: 'Info',
  warning: 'Warning',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  blocker: 'Blocker',
  critical: 'Critical',
};

export const INCIDENT_TYPE_LABELS: Record<IncidentType, string> = {
  cost: 'Cost',
  availability: 'Availability',
  performance: 'Performance',
  security: 'Security',
  integration: 'Integration',
  compliance: 'Compliance',
  technicalDebt: 'Technical Debt',
  reliability: 'Reliability',
};

/** Defaults of the create form (seed 001 section 5). */
export const INCIDENT_DEFAULTS = { type: 'availability', severity: 'low', status: 'open' } as const;

/** Evidence types (seed 001 section 3). */
export const EVIDENCE_TYPES = [
  'log',
  'topology',
  'config',
  'check',
  'config_change',
  'config_analysis',
  'comment',
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** The changelog's event names (seed 001 section 4, plus the ones this server adds). */
export const INCIDENT_HISTORY_TYPES = [
  'incident.created',
  'incident.status_updated',
  'incident_status.updated',
  'incident.severity_updated',
  'incident.type_updated',
  'responder.created',
  'responder.commented',
  'responder.deleted',
  'evidence.created',
  'evidence.done_definition_added',
  'evidence.done_definition_removed',
  'hypothesis.created',
  'hypothesis.status_updated',
] as const;

// ---- responders ---------------------------------------------------------------------------------

/** Responder type options (seed 001 section 9), in the seed's order. */
export const RESPONDER_TYPES = [
  'email',
  'jira',
  'service_now',
  'ca',
  'aws_support',
  'aws_ams_services_request',
  'redhat',
  'oracle',
  'ms_planner',
  'vmware',
  'person',
] as const;
export type ResponderType = (typeof RESPONDER_TYPES)[number];
/** The types a team can be added as (everything but person). */
export type TeamResponderType = Exclude<ResponderType, 'person'>;

export interface ResponderField {
  key: string;
  label: string;
  /** a longer text */
  multiline?: boolean;
  /** chosen from options looked up live (the field it depends on must be set first) */
  lookup?: { dependsOn?: string };
}

const CASE_FIELDS: ResponderField[] = [
  { key: 'category', label: 'Category' },
  { key: 'description', label: 'Description' },
  { key: 'body', label: 'Body', multiline: true },
];
const PRODUCT_CASE_FIELDS: ResponderField[] = [{ key: 'product', label: 'Product' }, ...CASE_FIELDS];

/** The fields of each team responder type (seed 001 section 3); every one is required. */
export const RESPONDER_FIELDS: Record<TeamResponderType, readonly ResponderField[]> = {
  email: [
    { key: 'to', label: 'To' },
    { key: 'subject', label: 'Subject' },
    { key: 'body', label: 'Body', multiline: true },
  ],
  jira: [
    { key: 'project', label: 'Project', lookup: {} },
    { key: 'issueType', label: 'Issue Type', lookup: { dependsOn: 'project' } },
    { key: 'priority', label: 'Priority', lookup: { dependsOn: 'project' } },
    { key: 'summary', label: 'Summary' },
    { key: 'description', label: 'Description', multiline: true },
  ],
  service_now: CASE_FIELDS,
  ca: CASE_FIELDS,
  aws_support: CASE_FIELDS,
  aws_ams_services_request: CASE_FIELDS,
  redhat: PRODUCT_CASE_FIELDS,
  oracle: PRODUCT_CASE_FIELDS,
  vmware: PRODUCT_CASE_FIELDS,
  ms_planner: [
    { key: 'plan_id', label: 'Plan', lookup: {} },
    { key: 'bucket_id', label: 'Bucket', lookup: { dependsOn: 'plan_id' } },
    { key: 'priority', label: 'Priority', lookup: { dependsOn: 'plan_id' } },
    { key: 'title', label: 'Title' },
    { key: 'description', label: 'Description', multiline: true },
  ],
};

/** Responder types whose ticket system is chosen as an instance (a connection) first. */
export const INSTANCE_RESPONDER_TYPES: readonly TeamResponderType[] = ['jira', 'ms_planner'];

export const RESPONDER_TYPE_LABELS: Record<ResponderType, string> = {
  email: 'Email',
  jira: 'Jira',
  service_now: 'ServiceNow',
  ca: 'CA',
  aws_support: 'AWS Support',
  aws_ams_services_request: 'AWS AMS Service Request',
  redhat: 'Red Hat',
  oracle: 'Oracle',
  ms_planner: 'Microsoft Planner',
  vmware: 'VMware',
  person: 'Person',
};

/** One responder type of a team's `spec.responder_clients`. */
export interface ResponderClientConfig {
  /** the connection (by name) that holds the ticket system's address and credentials */
  connection?: string;
  /** fixed values: they win over the form and lock the field */
  values?: Record<string, unknown>;
  /** templates evaluated against the form values and the incident */
  defaults?: Record<string, string>;
  /** template of the ticket's link, e.g. https://jira.example.com/browse/{{.external_id}} */
  linkUrl?: string;
}

/** The team responder types a team has configured, in the order of RESPONDER_TYPES. */
export function configuredResponderTypes(spec: unknown): TeamResponderType[] {
  const clients = (spec as { responder_clients?: Record<string, unknown> } | null)?.responder_clients ?? {};
  return RESPONDER_TYPES.filter((t): t is TeamResponderType => t !== 'person' && !!clients[t]);
}
