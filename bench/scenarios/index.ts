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
import { healthScheduling } from './health-scheduling.ts';
import { healthPageRender } from './health-page-render.ts';
import { healthSummary1h, healthSummary30d, healthYearOneCheck } from './health-summary.ts';
import { incidentDetail, incidentsList } from './incidents.ts';
import { metricsOverhead } from './metrics-overhead.ts';
import { metricsScrape } from './metrics-scrape.ts';
import { playbookDrain, playbookRunList } from './playbooks.ts';
import { notificationsFanout } from './notifications-fanout.ts';

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
  healthSummary1h,
  healthSummary30d,
  healthYearOneCheck,
  healthPageRender,
  incidentsList,
  incidentDetail,
  metricsScrape,
  metricsOverhead,
  playbookDrain,
  playbookRunList,
  notificationsFanout,
];
