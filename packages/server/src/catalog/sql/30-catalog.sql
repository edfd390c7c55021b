-- The catalog: list and detail views, filter values, the relationship graph functions.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- check_summary_for_config: the Checks tab of a config: its related checks' summaries.
CREATE OR REPLACE VIEW check_summary_for_config AS
SELECT r.config_id, cs.*
FROM check_config_relationships r
JOIN checks_summary cs ON cs.id = r.check_id
WHERE r.deleted_at IS NULL;

-- configs: the catalog list: config items without their body, with 30-day change counts and
-- open insight counts per analysis type.
CREATE OR REPLACE VIEW configs AS
SELECT ci.id, ci.scraper_id, ci.agent_id, ci.parent_id, ci.path, ci.external_id, ci.type, ci.config_class,
  ci.name, ci.tags ->> 'namespace' AS namespace, ci.description, ci.source, ci.status, ci.health, ci.ready,
  ci.labels, ci.tags, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
  ci.last_scraped_time, ci.delete_reason, ci.created_by, ci.created_at, ci.updated_at, ci.deleted_at,
  (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id AND cc.created_at > now() - interval '30 days') AS changes,
  (SELECT jsonb_object_agg(a.analysis_type, a.n) FROM (
     SELECT ca.analysis_type, count(*) AS n FROM config_analysis ca
     WHERE ca.config_id = ci.id AND ca.status = 'open' GROUP BY ca.analysis_type) a) AS analysis
FROM config_items ci;

-- config_detail: one config item with its body and the tab counts (summary).
CREATE OR REPLACE VIEW config_detail AS
SELECT ci.*,
  jsonb_build_object(
    'changes', (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id),
    'analysis', (SELECT count(*) FROM config_analysis ca WHERE ca.config_id = ci.id AND ca.status = 'open'),
    'relationships', (SELECT count(*) FROM config_relationships r
                      WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL),
    'playbook_runs', (SELECT count(*) FROM playbook_runs pr WHERE pr.config_id = ci.id),
    'checks', (SELECT count(*) FROM check_config_relationships k WHERE k.config_id = ci.id AND k.deleted_at IS NULL)
  ) AS summary
FROM config_items ci;

-- config_summary: the catalog landing page: live items grouped by class and type, with
-- health counts, open insights per type, 30-day changes and cost.
CREATE OR REPLACE VIEW config_summary AS
SELECT ci.config_class, ci.type,
  count(*) AS count,
  jsonb_strip_nulls(jsonb_build_object(
    'healthy', nullif(count(*) FILTER (WHERE ci.health = 'healthy'), 0),
    'unhealthy', nullif(count(*) FILTER (WHERE ci.health = 'unhealthy'), 0),
    'warning', nullif(count(*) FILTER (WHERE ci.health = 'warning'), 0),
    'unknown', nullif(count(*) FILTER (WHERE ci.health = 'unknown' OR ci.health IS NULL), 0))) AS health,
  (SELECT jsonb_object_agg(a.analysis_type, a.n) FROM (
     SELECT ca.analysis_type, count(*) AS n FROM config_analysis ca JOIN config_items x ON x.id = ca.config_id
     WHERE x.type = ci.type AND x.config_class = ci.config_class AND x.deleted_at IS NULL AND ca.status = 'open'
     GROUP BY ca.analysis_type) a) AS analysis,
  coalesce(sum(ch.n), 0) AS changes,
  sum(ci.cost_per_minute) AS cost_per_minute,
  sum(ci.cost_total_1d) AS cost_total_1d,
  sum(ci.cost_total_7d) AS cost_total_7d,
  sum(ci.cost_total_30d) AS cost_total_30d
FROM config_items ci
LEFT JOIN (
  SELECT config_id, count(*) AS n FROM config_changes
  WHERE created_at > now() - interval '30 days' GROUP BY config_id
) ch ON ch.config_id = ci.id
WHERE ci.deleted_at IS NULL
GROUP BY ci.config_class, ci.type;

-- config_names: a light list for pickers and lookups.
CREATE OR REPLACE VIEW config_names AS
SELECT id, name, type, config_class, tags, health, status, agent_id, deleted_at FROM config_items;

-- Distinct value lists for the catalog filters.
CREATE OR REPLACE VIEW config_types AS
SELECT DISTINCT type, config_class FROM config_items WHERE deleted_at IS NULL;

CREATE OR REPLACE VIEW config_classes AS
SELECT DISTINCT config_class FROM config_items WHERE deleted_at IS NULL;

CREATE OR REPLACE VIEW config_statuses AS
SELECT DISTINCT status FROM config_items WHERE deleted_at IS NULL AND status IS NOT NULL;

CREATE OR REPLACE VIEW config_tags AS
SELECT DISTINCT t.key, t.value
FROM config_items ci, jsonb_each_text(coalesce(ci.tags, '{}'::jsonb)) t
WHERE ci.deleted_at IS NULL;

CREATE OR REPLACE VIEW config_labels AS
SELECT DISTINCT l.key, l.value
FROM config_items ci, jsonb_each_text(coalesce(ci.labels, '{}'::jsonb)) l
WHERE ci.deleted_at IS NULL;

CREATE OR REPLACE VIEW change_types AS
SELECT DISTINCT change_type FROM config_changes;

CREATE OR REPLACE VIEW analysis_types AS
SELECT DISTINCT analysis_type FROM config_analysis;

CREATE OR REPLACE VIEW analyzers AS
SELECT DISTINCT analyzer, analysis_type FROM config_analysis;

-- catalog_changes: the Changes list: each change with its config's name, type, class, tags
-- and deleted_at (for "hide deleted").
CREATE OR REPLACE VIEW catalog_changes AS
SELECT cc.id, cc.config_id, cc.external_change_id, cc.change_type, cc.severity, cc.source, cc.summary,
  cc.details, cc.patches, cc.diff, cc.count, cc.first_observed, cc.created_by, cc.external_created_by, cc.created_at,
  ci.name, ci.type, ci.config_class, ci.tags, ci.agent_id, ci.deleted_at,
  jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class,
    'deleted_at', ci.deleted_at) AS config
FROM config_changes cc
JOIN config_items ci ON ci.id = cc.config_id;

-- config_changes_summary: change counts per config item (1, 7 and 30 days, all time).
CREATE OR REPLACE VIEW config_changes_summary AS
SELECT cc.config_id,
  count(*) AS total,
  count(*) FILTER (WHERE cc.created_at > now() - interval '1 day') AS last_1d,
  count(*) FILTER (WHERE cc.created_at > now() - interval '7 days') AS last_7d,
  count(*) FILTER (WHERE cc.created_at > now() - interval '30 days') AS last_30d,
  max(cc.created_at) AS last_change_at
FROM config_changes cc
GROUP BY cc.config_id;

-- config_changes_by_type: change counts per change type and severity over 30 days.
CREATE OR REPLACE VIEW config_changes_by_type AS
SELECT cc.change_type, cc.severity, count(*) AS count, max(cc.created_at) AS last_seen
FROM config_changes cc
WHERE cc.created_at > now() - interval '30 days'
GROUP BY cc.change_type, cc.severity;

-- config_analysis_items: the Insights list: each insight with its config.
CREATE OR REPLACE VIEW config_analysis_items AS
SELECT ca.id, ca.config_id, ca.scraper_id, ca.analyzer, ca.analysis_type, ca.severity, ca.status, ca.message,
  ca.summary, ca.analysis, ca.source, ca.first_observed, ca.last_observed, ca.created_at, ca.updated_at,
  ci.name AS config_name, ci.type AS config_type, ci.config_class, ci.deleted_at AS config_deleted_at,
  jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class) AS config
FROM config_analysis ca
JOIN config_items ci ON ci.id = ca.config_id;

-- config_relationships_items: each live relationship with both ends' names and types.
CREATE OR REPLACE VIEW config_relationships_items AS
SELECT r.config_id, r.related_id, r.relation, r.selector_id, r.created_at, r.deleted_at,
  a.name AS config_name, a.type AS config_type, b.name AS related_name, b.type AS related_type,
  b.health AS related_health, b.status AS related_status
FROM config_relationships r
JOIN config_items a ON a.id = r.config_id
JOIN config_items b ON b.id = r.related_id;

-- The relationship walk and the functions on it (related_config_ids, related_configs,
-- related_changes, related_configs_recursive, ...) are in 31-catalog-graph.sql.
