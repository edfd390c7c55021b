import type { SettingsFormField, SettingsResourceConfig } from '#web/components/settings-form/index.ts';

/**
 * The generic settings resources (seed 002 section 2.8): one entry per table, saying how its list
 * reads, which columns it hides, which form fields it has and which tabs its detail page shows.
 * Kept free of React so app/routes.ts can register one list and one detail route per table.
 */
const SCHEDULED: readonly SettingsFormField[] = ['icon', 'namespace', 'labels', 'schedule', 'spec'];

export const SETTINGS_RESOURCES: readonly SettingsResourceConfig[] = [
  {
    table: 'canaries',
    name: 'Health Check',
    title: 'Health Checks',
    basePath: '/settings/canaries',
    resource: 'canaries',
    features: ['settings.health'],
    listFrom: 'canaries_with_status',
    hiddenColumns: ['namespace'],
    schemaKind: 'canary',
    fields: SCHEDULED,
    tabs: ['spec', 'jobHistory'],
  },
  {
    table: 'topologies',
    name: 'Topology',
    title: 'Topologies',
    basePath: '/settings/topologies',
    resource: 'topologies',
    features: ['settings.topology'],
    listFrom: 'topologies_with_status',
    hiddenColumns: ['schedule'],
    schemaKind: 'topology',
    fields: SCHEDULED,
    // seed 002 section 5: the topology form's Save is disabled while the form is invalid
    disableSubmitWhileInvalid: true,
    tabs: ['spec', 'jobHistory'],
  },
  {
    table: 'config_scrapers',
    name: 'Catalog Scraper',
    title: 'Catalog Scrapers',
    // not a /settings/{table} page: scrapers live under the catalog (seed 002 section 2.1)
    basePath: '/catalog/scrapers',
    section: { label: 'Catalog', to: '/catalog' },
    resource: 'config_scrapers',
    features: ['settings.config_scraper'],
    listFrom: 'config_scrapers_with_status',
    hiddenColumns: ['schedule', 'namespace'],
    schemaKind: 'scraper',
    fields: SCHEDULED,
    tabs: ['spec', 'jobHistory'],
  },
  {
    table: 'teams',
    name: 'Team',
    title: 'Teams',
    basePath: '/settings/teams',
    resource: 'database',
    features: ['settings.teams'],
    listFrom: 'teams_with_status',
    hiddenColumns: ['schedule', 'namespace'],
    schemaKind: 'team',
    fields: ['icon', 'spec'],
    tabs: ['spec', 'manageTeam', 'jobHistory'],
  },
  {
    table: 'incident_rules',
    name: 'Incident Rule',
    title: 'Incident Rules',
    basePath: '/settings/incident_rules',
    resource: 'incident',
    features: ['settings.rules', 'incidents'],
    listFrom: 'incident_rules',
    hiddenColumns: ['schedule', 'namespace'],
    schemaKind: 'incident_rule',
    fields: ['spec'],
    tabs: ['spec', 'jobHistory'],
  },
  {
    table: 'logging_backends',
    name: 'Log Backend',
    title: 'Log Backends',
    basePath: '/settings/logging_backends',
    resource: 'logging_backends',
    features: ['settings.logging_backends', 'logs'],
    listFrom: 'logging_backends_with_status',
    hiddenColumns: ['schedule', 'namespace'],
    schemaKind: 'logging_backend',
    fields: ['namespace', 'labels', 'spec'],
    // seed 000 section 5: name required; Add/Update disabled while invalid
    addLabel: 'Add',
    disableSubmitWhileInvalid: true,
    tabs: ['spec', 'jobHistory'],
  },
  {
    table: 'notifications',
    name: 'Notification',
    title: 'Notifications',
    basePath: '/settings/notifications',
    resource: 'notifications',
    features: ['settings.notifications'],
    listFrom: 'notifications_with_status',
    hiddenColumns: ['schedule', 'namespace'],
    fields: [],
    codeFields: [
      'name',
      'namespace',
      'title',
      'events',
      'filter',
      'template',
      'repeat_interval',
      'properties',
      'person_id',
      'team_id',
      'custom_services',
    ],
    requiredCodeFields: ['events'],
    tabs: ['spec', 'jobHistory'],
  },
];

export const resourceConfig = (table: string): SettingsResourceConfig => {
  const c = SETTINGS_RESOURCES.find((r) => r.table === table);
  if (!c) throw new Error(`unknown settings table ${table}`);
  return c;
};

/** Scraper spec types and their icons (seed 002 section 2.8). */
export const SCRAPER_TYPE_ICONS: Record<string, string> = {
  kubernetes: 'kubernetes',
  azure: 'azure',
  kubernetesFile: 'kubernetes',
  sql: 'database',
  trivy: 'trivy',
  aws: 'aws',
  file: 'file',
  githubActions: 'github',
  http: 'http',
  azureDevops: 'azure-devops',
  custom: 'custom',
};
