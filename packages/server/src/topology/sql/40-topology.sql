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

-- A component's summary counts the open insights of its catalog items and the open incidents
-- with evidence on it (engine/rollup.ts). Their changes re-roll the topologies concerned promptly,
-- not at the next reconcile or check/config status event: the statement triggers below publish
-- `topology.summary` (one per topology and transaction; properties.topology_id) for the
-- topology.status consumer (index.ts), which rolls the topology up again in its own transaction.
CREATE OR REPLACE FUNCTION topology_summary_stale(component_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM publish_event('topology.summary', t.topology_id::text || '/' || txid_current()::text,
    jsonb_build_object('topology_id', t.topology_id))
  FROM (SELECT DISTINCT c.topology_id FROM components c
        WHERE c.id = ANY (component_ids) AND c.topology_id IS NOT NULL AND c.deleted_at IS NULL) t;
END
$$;

-- insights: opened, resolved, re-typed or re-rated, moved, deleted (a refresh of last_observed is not a change)
CREATE OR REPLACE FUNCTION config_analysis_topology_summary() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  config_ids uuid[];
  component_ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.config_id) INTO config_ids FROM new_rows n WHERE n.status = 'open';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.config_id) INTO config_ids FROM old_rows o WHERE o.status = 'open';
  ELSE
    SELECT array_agg(DISTINCT x.config_id) INTO config_ids
    FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.config_id), (n.config_id)) x(config_id)
    WHERE (o.status = 'open' OR n.status = 'open')
      AND (o.status, o.analysis_type, o.severity, o.config_id) IS DISTINCT FROM (n.status, n.analysis_type, n.severity, n.config_id);
  END IF;
  IF config_ids IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(DISTINCT r.component_id) INTO component_ids FROM config_component_relationships r
  WHERE r.config_id = ANY (config_ids) AND r.deleted_at IS NULL;
  IF component_ids IS NOT NULL THEN
    PERFORM topology_summary_stale(component_ids);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS config_analysis_topology_summary_ins ON config_analysis;
CREATE TRIGGER config_analysis_topology_summary_ins AFTER INSERT ON config_analysis
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION config_analysis_topology_summary();
DROP TRIGGER IF EXISTS config_analysis_topology_summary_upd ON config_analysis;
CREATE TRIGGER config_analysis_topology_summary_upd AFTER UPDATE ON config_analysis
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION config_analysis_topology_summary();
DROP TRIGGER IF EXISTS config_analysis_topology_summary_del ON config_analysis;
CREATE TRIGGER config_analysis_topology_summary_del AFTER DELETE ON config_analysis
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION config_analysis_topology_summary();

-- incident evidence on a component: added, removed (also when its hypothesis or incident is
-- deleted: the cascade deletes it), or moved to another component or hypothesis
CREATE OR REPLACE FUNCTION evidences_topology_summary() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  component_ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.component_id) INTO component_ids FROM new_rows n WHERE n.component_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.component_id) INTO component_ids FROM old_rows o WHERE o.component_id IS NOT NULL;
  ELSE
    SELECT array_agg(DISTINCT x.component_id) INTO component_ids
    FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.component_id), (n.component_id)) x(component_id)
    WHERE x.component_id IS NOT NULL
      AND (o.component_id, o.hypothesis_id) IS DISTINCT FROM (n.component_id, n.hypothesis_id);
  END IF;
  IF component_ids IS NOT NULL THEN
    PERFORM topology_summary_stale(component_ids);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS evidences_topology_summary_ins ON evidences;
CREATE TRIGGER evidences_topology_summary_ins AFTER INSERT ON evidences
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evidences_topology_summary();
DROP TRIGGER IF EXISTS evidences_topology_summary_upd ON evidences;
CREATE TRIGGER evidences_topology_summary_upd AFTER UPDATE ON evidences
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION evidences_topology_summary();
DROP TRIGGER IF EXISTS evidences_topology_summary_del ON evidences;
CREATE TRIGGER evidences_topology_summary_del AFTER DELETE ON evidences
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evidences_topology_summary();

-- an incident with evidence on components: resolved or closed, reopened, re-typed or re-rated
CREATE OR REPLACE FUNCTION incidents_topology_summary() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  component_ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT e.component_id) INTO component_ids
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  JOIN hypotheses h ON h.incident_id = n.id JOIN evidences e ON e.hypothesis_id = h.id
  WHERE e.component_id IS NOT NULL
    AND (o.status, o.type, o.severity) IS DISTINCT FROM (n.status, n.type, n.severity);
  IF component_ids IS NOT NULL THEN
    PERFORM topology_summary_stale(component_ids);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS incidents_topology_summary ON incidents;
CREATE TRIGGER incidents_topology_summary AFTER UPDATE ON incidents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION incidents_topology_summary();
