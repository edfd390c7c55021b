/**
 * Feature flags (seed 000 section 6): a property '{feature}.disable' = 'true' disables a feature.
 * Some settings features fall back to the flag of the area they belong to.
 */
export const FEATURES = [
  'topology',
  'health',
  'incidents',
  'config',
  'logs',
  'playbooks',
  'agents',
  'settings',
  'settings.connections',
  'settings.users',
  'settings.teams',
  'settings.rules',
  'settings.config_scraper',
  'settings.topology',
  'settings.health',
  'settings.job_history',
  'settings.feature_flags',
  'settings.logging_backends',
  'settings.event_queue_status',
  'settings.organization_profile',
  'settings.notifications',
  'settings.playbooks',
  'settings.integrations',
] as const;
export type Feature = (typeof FEATURES)[number];

const FALLBACK: Partial<Record<Feature, Feature>> = {
  'settings.config_scraper': 'config',
  'settings.topology': 'topology',
  'settings.health': 'health',
  'settings.job_history': 'health',
};

export type Properties = Record<string, string | undefined>;

export function isFeatureDisabled(feature: string, props: Properties): boolean {
  if (props[`${feature}.disable`] === 'true') return true;
  const fallback = FALLBACK[feature as Feature];
  return fallback ? props[`${fallback}.disable`] === 'true' : false;
}
