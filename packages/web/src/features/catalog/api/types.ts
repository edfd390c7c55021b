/** Rows the catalog screens read (seed 002 section 3). */

export type Health = 'healthy' | 'unhealthy' | 'warning' | 'unknown';

export interface ConfigListRow {
  id: string;
  name: string;
  type: string;
  config_class: string;
  status: string | null;
  health: Health | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  cost_per_minute: number | null;
  cost_total_1d: number | null;
  cost_total_7d: number | null;
  cost_total_30d: number | null;
  changes: number | null;
  analysis: Record<string, number> | null;
  agent?: { id: string; name: string } | null;
}

/**
 * One row of POST /api/catalog/summary: the group's keys (under their names: config_class, type,
 * name, changed, tags.<key>; grouping by analysis or health answers the group under its counts)
 * and its figures.
 */
export interface ConfigSummaryRow {
  config_class?: string | null;
  type?: string | null;
  name?: string | null;
  changed?: boolean | null;
  [key: string]: unknown;
  count: number;
  health: Partial<Record<Health, number>> | null;
  analysis: Record<string, number> | null;
  changes: number;
  cost_per_minute: number | null;
  cost_total_1d: number | null;
  cost_total_7d: number | null;
  cost_total_30d: number | null;
}

export interface ConfigDetail extends ConfigListRow {
  description: string | null;
  config: unknown;
  format: string | null;
  source: string | null;
  scraper_id: string | null;
  last_scraped_time: string | null;
  delete_reason: string | null;
  parent_id: string | null;
  summary: { changes: number; analysis: number; relationships: number; playbook_runs: number; checks: number };
  config_scrapers?: { id: string; name: string } | null;
}

export interface ConfigChange {
  id: string;
  config_id: string;
  change_type: string;
  summary: string | null;
  severity: string | null;
  source: string | null;
  tags: Record<string, string> | null;
  created_at: string;
  first_observed: string | null;
  count: number;
  created_by: string | null;
  external_created_by: string | null;
  name: string;
  type: string;
  config_class?: string;
  deleted_at: string | null;
  details?: unknown;
  patches?: unknown;
  diff?: string | null;
  creator?: { id: string; name: string | null; email: string | null } | null;
}

export interface ConfigInsight {
  id: string;
  config_id: string;
  analysis_type: string;
  analyzer: string;
  severity: string;
  status: string;
  message: string | null;
  summary: string | null;
  source: string | null;
  first_observed: string;
  last_observed: string;
  analysis?: unknown;
  config: { id: string; name: string; type: string; config_class: string };
}

/** One related config on the relationships page (graph config node, seed 002 section 3). */
export interface RelatedConfig {
  id: string;
  name: string;
  type: string;
  config_class: string;
  status: string | null;
  health: Health | null;
  tags: Record<string, string> | null;
  labels: Record<string, string> | null;
  deleted_at: string | null;
  depth: number;
  relation_direction: 'incoming' | 'outgoing';
  relation: string;
}

/** A direct link between two configs, with who made it (selector 'manual' can be unlinked). */
export interface ConfigLink {
  config_id: string;
  related_id: string;
  relation: string;
  selector_id: string;
}
