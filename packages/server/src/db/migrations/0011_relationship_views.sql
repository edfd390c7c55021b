-- 0011: views for the panels that show what is linked to a component or a check: the
-- topology sidebar (Catalog, Changes, Insights) and the check drawer's Relationships tab.

-- configs_by_component: the Catalog panel of a component: its linked config items.
CREATE VIEW configs_by_component AS
SELECT r.component_id, r.selector_id, c.id, c.name, c.type, c.config_class, c.status, c.health, c.tags, c.labels,
  c.agent_id, c.cost_total_30d, c.created_at, c.updated_at, c.deleted_at
FROM config_component_relationships r
JOIN config_items c ON c.id = r.config_id
WHERE r.deleted_at IS NULL;

-- config_changes_by_component: the Changes panel of a component: changes of its linked configs.
CREATE VIEW config_changes_by_component AS
SELECT r.component_id, cc.*
FROM config_component_relationships r
JOIN catalog_changes cc ON cc.config_id = r.config_id
WHERE r.deleted_at IS NULL;

-- config_analysis_by_component: the Insights panel of a component (and /catalog/insights?component=).
CREATE VIEW config_analysis_by_component AS
SELECT r.component_id, a.*
FROM config_component_relationships r
JOIN config_analysis_items a ON a.config_id = r.config_id
WHERE r.deleted_at IS NULL;

-- check_relationships: the Relationships tab of a check: the configs and components it watches.
CREATE VIEW check_relationships AS
SELECT r.check_id, c.id, c.name, 'config'::text AS type, c.type AS kind, c.health AS status, c.deleted_at
FROM check_config_relationships r
JOIN config_items c ON c.id = r.config_id
WHERE r.deleted_at IS NULL
UNION ALL
SELECT r.check_id, c.id, c.name, 'component'::text, c.type, c.status, c.deleted_at
FROM check_component_relationships r
JOIN components c ON c.id = r.component_id
WHERE r.deleted_at IS NULL;
