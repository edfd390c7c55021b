import { agentPush } from './agent-push.ts';
import { apiDbConfigById } from './api-db-config-by-id.ts';
import { apiDbCatalogPage } from './api-db-catalog-page.ts';
import { catalogFileScrape } from './catalog-file-scrape.ts';
import { eventQueueDrain } from './event-queue-drain.ts';
import {
  catalogChangesBench,
  catalogFilteredListBench,
  catalogRelationshipsBench,
  catalogSummaryBench,
} from './catalog-graph.ts';
import { healthScheduling, healthSchedulingPglite } from './health-scheduling.ts';
import { healthPageRender, healthPageRenderPglite } from './health-page-render.ts';
import { healthSoakPg, healthSoakPglite } from './health-soak.ts';
import { healthSummary1h, healthSummary30d, healthYearOneCheck } from './health-summary.ts';
import { incidentDetail, incidentsList } from './incidents.ts';
import { metricsOverhead } from './metrics-overhead.ts';
import { metricsScrape } from './metrics-scrape.ts';
import { playbookDrain, playbookRunList } from './playbooks.ts';
import { notificationsFanout } from './notifications-fanout.ts';
import { topologyReconcilePg, topologyReconcilePglite } from './topology-reconcile.ts';
import { topologyPageRender } from './topology-page-render.ts';
import { topologyFlatListing, topologyRootListing } from './topology-listing.ts';
import { logsFileSearch } from './logs-file-search.ts';
import { kubeApplyAndList } from './kube.ts';
import { organizationsScale } from './organizations.ts';

export interface Scenario {
  name: string;
  run(): Promise<Record<string, string | number>>;
}

export const scenarios: Scenario[] = [
  apiDbConfigById,
  apiDbCatalogPage,
  catalogSummaryBench,
  catalogFilteredListBench,
  catalogChangesBench,
  catalogRelationshipsBench,
  catalogFileScrape,
  eventQueueDrain,
  healthScheduling,
  healthSchedulingPglite,
  healthSummary1h,
  healthSummary30d,
  healthYearOneCheck,
  healthPageRender,
  healthPageRenderPglite,
  healthSoakPg,
  healthSoakPglite,
  incidentsList,
  incidentDetail,
  metricsScrape,
  metricsOverhead,
  playbookDrain,
  playbookRunList,
  notificationsFanout,
  topologyReconcilePg,
  topologyReconcilePglite,
  topologyPageRender,
  topologyRootListing,
  topologyFlatListing,
  logsFileSearch,
  kubeApplyAndList,
  agentPush,
  organizationsScale,
];
