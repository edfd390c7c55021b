import { matchPath } from 'react-router';
import { createElement, type ComponentType } from 'react';
import { SETTINGS_RESOURCES } from '../features/settings-resources/resources.ts';
import { preloadHealthSummary } from '../features/health/api/preload.ts';
import { preloadTopology } from '../features/topology/api/preload.ts';

/**
 * The screens that exist, one entry per route. The router is built from this list and the
 * sidebar shows only navigation items whose path matches one of these, so adding a feature is
 * adding its entry here. Screens are lazy-loaded.
 */
export interface FeatureRoute {
  /** Path under / (react-router pattern, no leading slash). */
  path: string;
  load: () => Promise<ComponentType>;
  /** Read permission needed to open it (the Unauthorized screen otherwise). */
  resource?: string;
  /** Hidden (not found) when any of these features is disabled. */
  features?: readonly string[];
}

export const FEATURE_ROUTES: readonly FeatureRoute[] = [
  // Generic settings resources: a list and a detail route per table (seed 002 section 2.8), "not
  // for config scrapers": theirs are the catalog's Scrapers tab, below.
  ...SETTINGS_RESOURCES.filter((r) => r.table !== 'config_scrapers').flatMap((r): FeatureRoute[] => [
    {
      path: r.basePath.slice(1),
      resource: r.resource,
      features: r.features,
      load: () =>
        import('../features/settings-resources/routes/resource-list-page.tsx').then((m) => m.listPageFor(r.table)),
    },
    {
      path: `${r.basePath.slice(1)}/:id`,
      resource: r.resource,
      features: r.features,
      load: async () => {
        const m = await import('../features/settings-resources/routes/resource-detail-page.tsx');
        if (r.table !== 'teams') return m.detailPageFor(r.table);
        // the teams' Members tab belongs to the teams feature: app/ composes the two
        const { TeamMembers } = await import('../features/teams/components/team-members.tsx');
        return m.detailPageFor(r.table, (teamId) => createElement(TeamMembers, { teamId }));
      },
    },
  ]),
  {
    path: 'settings/users',
    resource: 'identities',
    features: ['settings.users'],
    load: () => import('../features/users/routes/users-page.tsx').then((m) => m.UsersPage),
  },
  {
    path: 'settings/jobs',
    resource: 'database',
    features: ['settings.job_history'],
    load: () => import('../features/jobs/routes/jobs-page.tsx').then((m) => m.JobsPage),
  },
  {
    path: 'settings/connections',
    resource: 'connections',
    features: ['settings.connections'],
    load: () => import('../features/connections/routes/connections-page.tsx').then((m) => m.ConnectionsPage),
  },
  {
    path: 'settings/feature-flags',
    resource: 'feature_flags',
    features: ['settings.feature_flags'],
    load: () => import('../features/feature-flags/routes/feature-flags-page.tsx').then((m) => m.FeatureFlagsPage),
  },
  {
    path: 'settings/integrations',
    resource: 'integrations',
    features: ['settings.integrations'],
    load: () => import('./integrations-route.tsx').then((m) => m.IntegrationsRoute),
  },
  {
    path: 'settings/integrations/:type/:id',
    resource: 'integrations',
    features: ['settings.integrations'],
    load: () => import('./integrations-route.tsx').then((m) => m.IntegrationDetailRoute),
  },
  // hosted mode: the current organisation's members (features/organizations; admins manage them)
  {
    path: 'organizations/members',
    features: ['settings.organization_profile'],
    load: () => import('../features/organizations/routes/members-page.tsx').then((m) => m.OrganizationMembersPage),
  },
  {
    path: 'settings/event-queue-status',
    resource: 'database',
    features: ['settings.event_queue_status'],
    load: () => import('../features/event-queue/routes/event-queue-page.tsx').then((m) => m.EventQueuePage),
  },
  {
    path: 'health',
    resource: 'canaries',
    features: ['health'],
    load: () => {
      // the dashboard's slowest call starts with its code, not after it (features/health/api/preload.ts)
      if (window.location.pathname === '/health') preloadHealthSummary(window.location.search);
      return import('./health-route.tsx').then((m) => m.HealthRoute);
    },
  },
  {
    path: 'incidents',
    resource: 'incident',
    features: ['incidents'],
    load: () => import('../features/incidents/routes/incidents-page.tsx').then((m) => m.IncidentsPage),
  },
  {
    path: 'incidents/:id',
    resource: 'incident',
    features: ['incidents'],
    load: () => import('../features/incidents/routes/incident-detail-page.tsx').then((m) => m.IncidentDetailPage),
  },
  // Notifications (seed 002 section 2.15): send history, rules, silences, add silence
  {
    path: 'notifications',
    resource: 'notifications',
    features: ['settings.notifications'],
    load: () => import('../features/notifications/routes/send-history-page.tsx').then((m) => m.SendHistoryPage),
  },
  {
    path: 'notifications/rules',
    resource: 'notifications',
    features: ['settings.notifications'],
    load: () => import('../features/notifications/routes/rules-page.tsx').then((m) => m.RulesPage),
  },
  {
    path: 'notifications/silences',
    resource: 'notifications',
    features: ['settings.notifications'],
    load: () => import('../features/notifications/routes/silences-page.tsx').then((m) => m.SilencesPage),
  },
  {
    path: 'notifications/silences/add',
    resource: 'notifications',
    features: ['settings.notifications'],
    load: () => import('../features/notifications/routes/add-silence-page.tsx').then((m) => m.AddSilencePage),
  },
  {
    path: 'playbooks',
    resource: 'playbooks',
    features: ['playbooks'],
    load: () => import('../features/playbooks/routes/playbooks-page.tsx').then((m) => m.PlaybooksPage),
  },
  {
    path: 'settings/playbook-sources',
    resource: 'playbooks',
    features: ['playbooks'],
    load: () => import('../features/playbooks/routes/sources-page.tsx').then((m) => m.PlaybookSourcesPage),
  },
  {
    path: 'playbooks/runs',
    resource: 'playbook_runs',
    features: ['playbooks'],
    load: () => import('../features/playbooks/routes/runs-page.tsx').then((m) => m.RunsPage),
  },
  {
    path: 'playbooks/runs/:id',
    resource: 'playbook_runs',
    features: ['playbooks'],
    load: () => import('../features/playbooks/routes/run-detail-page.tsx').then((m) => m.RunDetailPage),
  },
  // Logs (seed 001 "/logs"): reading needs the log backends; the logs feature flag hides it
  {
    path: 'logs',
    resource: 'logging_backends',
    features: ['logs'],
    load: () => import('../features/logs/routes/logs-page.tsx').then((m) => m.LogsPage),
  },
  // The topology dashboard (seed 002 section 2.7): the roots, or one component's children.
  ...['topology', 'topology/:id'].map((path): FeatureRoute => ({
    path,
    resource: 'topologies',
    features: ['topology'],
    load: () => {
      // the listing call starts with the page's code, not after it (features/topology/api/preload.ts)
      preloadTopology(window.location.pathname, window.location.search);
      return import('../features/topology/routes/topology-page.tsx').then((m) => m.TopologyPage);
    },
  })),
  // The catalog (seed 002 sections 2.1-2.6); static paths rank above /catalog/:id.
  {
    path: 'catalog',
    resource: 'database',
    features: ['config'],
    load: () => import('../features/catalog/routes/catalog-page.tsx').then((m) => m.CatalogPage),
  },
  {
    path: 'catalog/changes',
    resource: 'database',
    features: ['config'],
    load: () => import('../features/catalog/routes/changes-page.tsx').then((m) => m.ChangesPage),
  },
  {
    path: 'catalog/insights',
    resource: 'database',
    features: ['config'],
    load: () => import('../features/catalog/routes/insights-page.tsx').then((m) => m.InsightsPage),
  },
  {
    path: 'catalog/scrapers',
    resource: 'config_scrapers',
    features: ['config', 'settings.config_scraper'],
    load: () => import('./catalog-scrapers-route.tsx').then((m) => m.CatalogScrapersRoute),
  },
  {
    path: 'catalog/scrapers/:id',
    resource: 'config_scrapers',
    features: ['config', 'settings.config_scraper'],
    load: () => import('./catalog-scrapers-route.tsx').then((m) => m.CatalogScraperDetailRoute),
  },
  {
    path: 'catalog/:id',
    resource: 'database',
    features: ['config'],
    load: () => import('../features/catalog/routes/config-detail-page.tsx').then((m) => m.ConfigDetailPage),
  },
  {
    path: 'catalog/:id/:tab',
    resource: 'database',
    features: ['config'],
    load: () => import('../features/catalog/routes/config-detail-page.tsx').then((m) => m.ConfigDetailPage),
  },
  // Agents (seed 000 section 2): the same screen in two places of the navigation
  {
    path: 'agents',
    resource: 'agents',
    features: ['agents'],
    load: () => import('../features/agents/routes/agents-page.tsx').then((m) => m.AgentsPage),
  },
  {
    path: 'settings/agents',
    resource: 'agents',
    features: ['agents'],
    load: () => import('../features/agents/routes/agents-page.tsx').then((m) => m.AgentsPage),
  },
  {
    // account settings of the signed-in person: no resource or feature gate, everyone has one
    path: 'profile-settings',
    load: () => import('../features/account/routes/profile-settings-page.tsx').then((m) => m.ProfileSettingsPage),
  },
];

/** Whether a concrete path (e.g. /settings/users) leads to a registered screen. */
export function isRegisteredPath(pathname: string, routes: readonly FeatureRoute[] = FEATURE_ROUTES): boolean {
  return routes.some((r) => matchPath({ path: `/${r.path}`, end: true }, pathname) !== null);
}
