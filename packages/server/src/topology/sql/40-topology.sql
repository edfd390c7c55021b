-- Topology: component lists, what is linked to a component, component status events.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- checks_by_component: the Checks panel of a component.
CREATE OR REPLACE VIEW checks_by_component AS
SELECT r.component_id, cs.*
FROM check_component_relationships r
JOIN checks_summary cs ON cs.id = r.check_id
WHERE r.deleted_at IS NULL;

-- component_names: a light list of live components for pickers.
CREATE OR REPLACE VIEW component_names AS
SELECT id, name, title, type, icon, status, parent_id, path, topology_id, agent_id, external_id, created_at, updated_at
FROM components WHERE deleted_at IS NULL;

-- components_with_logs: live components that declare log sources (the Logs page).
CREATE OR REPLACE VIEW components_with_logs AS
SELECT id, name, title, type, icon, agent_id, logs
FROM components
WHERE deleted_at IS NULL AND jsonb_typeof(logs) = 'array' AND jsonb_array_length(logs) > 0;

-- component_labels: distinct label key/value pairs of live components.
CREATE OR REPLACE VIEW component_labels AS
SELECT DISTINCT l.key, l.value
FROM components c, jsonb_each_text(coalesce(c.labels, '{}'::jsonb)) l
WHERE c.deleted_at IS NULL;

-- component_types: distinct component types.
CREATE OR REPLACE VIEW component_types AS
SELECT DISTINCT type FROM components WHERE deleted_at IS NULL AND type IS NOT NULL;

-- configs_by_component: the Catalog panel of a component: its linked config items.
CREATE OR REPLACE VIEW configs_by_component AS
SELECT r.component_id, r.selector_id, c.id, c.name, c.type, c.config_class, c.status, c.health, c.tags, c.labels,
  c.agent_id, c.cost_total_30d, c.created_at, c.updated_at, c.deleted_at
FROM config_component_relationships r
JOIN config_items c ON c.id = r.config_id
WHERE r.deleted_at IS NULL;

-- config_changes_by_component: the Changes panel of a component: changes of its linked configs.
CREATE OR REPLACE VIEW config_changes_by_component AS
SELECT r.component_id, cc.*
FROM config_component_relationships r
JOIN catalog_changes cc ON cc.config_id = r.config_id
WHERE r.deleted_at IS NULL;

-- config_analysis_by_component: the Insights panel of a component (and /catalog/insights?component=).
CREATE OR REPLACE VIEW config_analysis_by_component AS
SELECT r.component_id, a.*
FROM config_component_relationships r
JOIN config_analysis_items a ON a.config_id = r.config_id
WHERE r.deleted_at IS NULL;

-- last_transition_time is the start of the current status (a definition of done's `age`).
CREATE OR REPLACE FUNCTION components_status_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.last_transition_time := now();
  RETURN NEW;
END
$$;

DROP TRIGGER IF EXISTS components_status_stamp ON components;
CREATE TRIGGER components_status_stamp BEFORE UPDATE OF status ON components FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION components_status_stamp();

-- A component publishes component.status.<status> (healthy, unhealthy, warning, unknown) when its
-- status changes (the topology engine's roll-up, topology/README.md), in the change's own transaction (incident rules and the automatic definition of done
-- consume them: incidents/README.md).
CREATE OR REPLACE FUNCTION components_status_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM publish_event('component.status.' || NEW.status,
    -- a component created unhealthy has one such event (re-created rows, e.g. a re-seed, do not repeat it)
    NEW.id || '/' || CASE WHEN TG_OP = 'INSERT' THEN 'created'
                          ELSE to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    jsonb_build_object('component_id', NEW.id, 'name', NEW.name, 'type', NEW.type, 'status', NEW.status,
      'previous', CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, 'status_reason', NEW.status_reason, 'time', now()));
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS components_status_events ON components;
CREATE TRIGGER components_status_events AFTER UPDATE OF status ON components FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('healthy', 'unhealthy', 'warning', 'unknown') AND NEW.deleted_at IS NULL)
  EXECUTE FUNCTION components_status_events();

-- a component that appears unhealthy counts as turning unhealthy (like a check's first failing run)
DROP TRIGGER IF EXISTS components_status_events_new ON components;
CREATE TRIGGER components_status_events_new AFTER INSERT ON components FOR EACH ROW
  WHEN (NEW.status = 'unhealthy' AND NEW.deleted_at IS NULL) EXECUTE FUNCTION components_status_events();
