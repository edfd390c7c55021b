import type { Feature } from '@watchdeck/core';

/**
 * Which feature flag switches off an /api/db table or view. Only tables a feature owns outright are
 * listed: shared entities (people, teams, agents, config items, components, checks) are embedded
 * by other areas' queries, and one disabled feature must not break another area's page.
 */
export const TABLE_FEATURES: Record<string, Feature> = {
  // incidents
  incidents: 'incidents',
  incident_summary: 'incidents',
  incidents_by_component: 'incidents',
  incidents_by_config: 'incidents',
  incident_histories: 'incidents',
  hypotheses: 'incidents',
  evidences: 'incidents',
  comments: 'incidents',
  responders: 'incidents',
  incident_rules: 'settings.rules',
  // health
  canaries: 'health',
  canaries_with_status: 'health',
  check_statuses: 'health',
  checks_summary: 'health',
  // catalog
  config_changes: 'config',
  catalog_changes: 'config',
  config_changes_summary: 'config',
  config_changes_by_type: 'config',
  config_analysis: 'config',
  config_analysis_items: 'config',
  config_scrapers: 'settings.config_scraper',
  config_scrapers_with_status: 'settings.config_scraper',
  // topology
  topologies: 'settings.topology',
  topologies_with_status: 'settings.topology',
  // playbooks
  playbooks: 'playbooks',
  playbook_names: 'playbooks',
  playbook_runs: 'playbooks',
  playbook_runs_summary: 'playbooks',
  playbook_run_actions: 'playbooks',
  playbook_approvals: 'playbooks',
  // agents (the agents table itself is embedded everywhere as agent(id,name))
  agents_summary: 'agents',
  // logs
  logging_backends: 'logs',
  logging_backends_with_status: 'logs',
  // settings pages
  connections: 'settings.connections',
  integrations_with_status: 'settings.integrations',
  job_history: 'settings.job_history',
  job_histories: 'settings.job_history',
  job_history_names: 'settings.job_history',
  event_queue_summary: 'settings.event_queue_status',
};
