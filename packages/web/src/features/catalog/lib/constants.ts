/**
 * The catalog's business constants (seed 002 section 9) and option lists (sections 2.2-2.6, 3).
 */

/** Changes: default page size 200, page 1, last 2 days, created_at descending. */
export const CHANGES_PAGE_SIZE = 200;
export const CHANGES_DEFAULT_RANGE = '2d';
export const CHANGES_DEFAULT_SORT = { id: 'created_at', desc: true } as const;
/** A changes count of 500 or more is highlighted; above 999 it reads k+. */
export const CHANGES_HIGHLIGHT_AT = 500;

/** Insights: page 50, the next page within 300 px of the end, messages cut at 500 characters. */
export const INSIGHTS_PAGE_SIZE = 50;
export const INSIGHTS_LOAD_MORE_PX = 300;
export const INSIGHT_MESSAGE_MAX = 500;
export const INSIGHTS_ROW_ESTIMATE = 45;
export const INSIGHTS_OVERSCAN = 10;

/** Catalog: cached staleness 5 minutes, search debounce 400 ms, last-scraped warning after 1 hour. */
export const CATALOG_STALE_MS = 5 * 60_000;
export const SEARCH_DEBOUNCE_MS = 400;
export const LAST_SCRAPED_WARNING_MS = 60 * 60_000;
export const CATALOG_PAGE_SIZE = 50;

/** Graph (seed 002 section 9). */
export const GRAPH = {
  rankSep: 120,
  nodeSep: 100,
  nodeWidth: 400,
  nodeHeight: 100,
  animationMs: 300,
  /** a group node stands for this many or more related configs of one type */
  groupMin: 3,
  /** a group with this many or fewer children starts expanded */
  autoExpandMax: 3,
} as const;

/** Health options and their colours, in the seed's order: green, red, orange, gray. */
export const HEALTH_OPTIONS = [
  { value: 'healthy', label: 'Healthy' },
  { value: 'unhealthy', label: 'Unhealthy' },
  { value: 'warning', label: 'Warning' },
  { value: 'unknown', label: 'Unknown' },
] as const;

export const SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'] as const;
export const ANALYSIS_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technical_debt',
  'reliability',
  'recommendation',
  'other',
] as const;
export const INSIGHT_STATUSES = ['open', 'resolved', 'silenced'] as const;

/** Default summary grouping and list sort (seed 002 section 2.2). */
export const DEFAULT_GROUP_BY = 'config_class,type';
export const DEFAULT_SORT_BY = 'type';

/** Local preferences. */
export const HIDE_DELETED_KEY = 'catalog.hideDeleted';
export const HIDE_DELETED_CHANGES_KEY = 'catalog.changes.hideDeleted';
export const FAVOURITE_TYPES_KEY = 'catalog.favouriteTypes';

/** Messages of the error catalogue (seed 002 section 8). */
export const MESSAGES = {
  notFound: 'Details not found',
  changesError: 'Something went wrong',
  unlinked: 'Deleted config link successfully',
  linked: 'config link successful',
  lastScraped: 'Last scraped more than an hour ago',
  noResources: 'No resources found',
} as const;
