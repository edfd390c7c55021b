/**
 * The tables, views and functions (as 'rpc/<name>') /api/db exposes, each mapped to the RBAC resource (seed 000 section 6)
 * that guards it: GET needs read on the resource, POST/PATCH/DELETE need write. Anything not
 * listed here answers PGRST205 as if it did not exist.
 *
 * Never listed: secret-holding tables (identity_credentials, identity_sessions, identity_flows,
 * identity_tokens, identity_errors, access_tokens), engine internals (event_queue,
 * event_deliveries, event_consumers, scheduler_claims, schema_migrations, schema_sql_files). Their data reaches the browser only through the
 * dedicated routes (auth, agents, event queue summary).
 */
interface ExposedTable {
  resource: string;
  /**
   * No writes through /api/db: every view, plus tables whose writes must go through a
   * dedicated route (people, identities: user management; check_statuses, job_history: engines).
   */
  readOnly?: boolean;
  /** columns stored encrypted and never returned in clear (connection passwords, certificates) */
  secrets?: string[];
}

export type ExposedTables = Record<string, ExposedTable>;

const table = (resource: string): ExposedTable => ({ resource });
const view = (resource: string): ExposedTable => ({ resource, readOnly: true });

export const exposedTables: ExposedTables = {
  // People, teams and roles. 'database' is readable by every role, so names and avatars show
  // everywhere; people are written through the users routes (identities write).
  people: view('database'),
  identities: view('identities'),
  people_roles: table('rbac'),
  teams: table('database'),
  teams_with_status: view('database'),
  team_members: table('database'),
  saved_searches: table('database'),

  // Agents
  agents: table('agents'),
  agents_summary: view('agents'),

  // Health
  canaries: table('canaries'),
  canaries_with_status: view('canaries'),
  checks: table('canaries'),
  checks_summary: view('canaries'),
  check_statuses: view('canaries'),
  check_summary_for_config: view('canaries'),
  checks_by_component: view('canaries'),
  check_labels: view('canaries'),
  check_config_relationships: table('canaries'),
  check_component_relationships: table('topologies'),
  check_relationships: view('canaries'),

  // Catalog
  config_items: table('database'),
  configs: view('database'),
  config_detail: view('database'),
  config_summary: view('database'),
  config_names: view('database'),
  config_types: view('database'),
  config_classes: view('database'),
  config_statuses: view('database'),
  config_tags: view('database'),
  config_labels: view('database'),
  config_changes: table('database'),
  catalog_changes: view('database'),
  config_changes_summary: view('database'),
  config_changes_by_type: view('database'),
  change_types: view('database'),
  config_analysis: table('database'),
  config_analysis_items: view('database'),
  analysis_types: view('database'),
  analyzers: view('database'),
  config_relationships: table('database'),
  config_relationships_items: view('database'),
  config_scrapers: table('config_scrapers'),
  config_scrapers_with_status: view('config_scrapers'),

  // Topology
  topologies: table('topologies'),
  topologies_with_status: view('topologies'),
  components: table('topologies'),
  component_names: view('topologies'),
  components_with_logs: view('topologies'),
  component_labels: view('topologies'),
  component_types: view('topologies'),
  component_relationships: table('topologies'),
  config_component_relationships: table('topologies'),
  team_components: table('topologies'),
  configs_by_component: view('topologies'),
  config_changes_by_component: view('database'),
  config_analysis_by_component: view('database'),

  // Incidents
  incidents: table('incident'),
  incident_summary: view('incident'),
  incidents_by_component: view('incident'),
  incidents_by_config: view('incident'),
  // the changelog: written by the database's triggers only (incidents/sql), never by clients
  incident_histories: view('incident'),
  incident_rules: table('incident'),
  hypotheses: table('incident'),
  evidences: table('evidences'),
  comments: table('comments'),
  responders: table('responder'),

  // Playbooks
  playbooks: table('playbooks'),
  playbook_names: view('playbooks'),
  playbook_runs: table('playbook_runs'),
  playbook_runs_summary: view('playbook_runs'),
  playbook_run_actions: table('playbook_runs'),
  playbook_approvals: table('playbook_runs'),

  // Notifications
  notifications: table('notifications'),
  notifications_summary: view('notifications'),
  notifications_with_status: view('notifications'),
  notification_send_history: view('notifications'),
  notification_send_history_summary: view('notifications'),
  notification_silences: table('notifications'),

  // Settings
  connections: { resource: 'connections', secrets: ['password', 'certificate'] },
  // feature flags are written through /api/properties (local flags refuse edits; the flag cache is dropped)
  properties: view('properties'),
  logging_backends: table('logging_backends'),
  logging_backends_with_status: view('logging_backends'),
  integrations_with_status: view('integrations'),
  job_history: view('database'),
  job_histories: view('database'),
  job_history_names: view('database'),
  event_queue_summary: view('database'),

  // Functions (/api/db/rpc/<name>): read-only, so POST needs only read on the resource.
  'rpc/related_config_ids': view('database'),
  'rpc/related_configs': view('database'),
  'rpc/related_changes': view('database'),
  'rpc/related_configs_recursive': view('database'),
  'rpc/related_changes_recursive': view('database'),
  // Writes of several rows in one transaction (incidents/sql/50-incidents.sql): write on incidents.
  'rpc/create_incident': table('incident'),
  'rpc/update_incident_status': table('incident'),
};
