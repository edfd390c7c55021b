-- 0105: what incident rules and the automatic definition of done react to (server
-- incidents/README.md):
--   * components publish component.status.unhealthy / component.status.healthy when their status
--     changes (and unhealthy when inserted unhealthy), in the change's own transaction, and keep
--     last_transition_time, the start of the current status (a definition of done's `age`);
--   * the incidents area subscribes to check.passed / check.failed (health/record.ts) and to those
--     component events: each one is copied as 'incident.resource.transition' in the publishing
--     transaction. The queue has one handler per event name, so the originals stay for any other
--     consumer (notifications) and incidents handle their own copy.

ALTER TABLE components ADD COLUMN last_transition_time timestamptz;

CREATE FUNCTION components_status_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.last_transition_time := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER components_status_stamp BEFORE UPDATE OF status ON components FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION components_status_stamp();

CREATE FUNCTION components_status_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_queue (name, event_id, properties)
  VALUES ('component.status.' || NEW.status,
    -- a component created unhealthy has one such event (re-created rows, e.g. a re-seed, do not repeat it)
    NEW.id || '/' || CASE WHEN TG_OP = 'INSERT' THEN 'created'
                          ELSE to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
    jsonb_build_object('component_id', NEW.id, 'name', NEW.name, 'type', NEW.type, 'status', NEW.status,
      'previous', CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, 'status_reason', NEW.status_reason, 'time', now()))
  ON CONFLICT (name, event_id) DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER components_status_events AFTER UPDATE OF status ON components FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('healthy', 'unhealthy') AND NEW.deleted_at IS NULL)
  EXECUTE FUNCTION components_status_events();
-- a component that appears unhealthy counts as turning unhealthy (like a check's first failing run)
CREATE TRIGGER components_status_events_new AFTER INSERT ON components FOR EACH ROW
  WHEN (NEW.status = 'unhealthy' AND NEW.deleted_at IS NULL) EXECUTE FUNCTION components_status_events();

CREATE FUNCTION incident_transition_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE WHEN NEW.name LIKE 'check.%' THEN 'check' ELSE 'component' END;
BEGIN
  INSERT INTO event_queue (name, event_id, properties)
  VALUES ('incident.resource.transition', NEW.name || '/' || NEW.event_id,
    jsonb_build_object('source_event', NEW.name, 'kind', kind,
      'resource_id', NEW.properties ->> (kind || '_id'),
      'status', CASE WHEN NEW.name IN ('check.passed', 'component.status.healthy') THEN 'healthy' ELSE 'unhealthy' END,
      'time', NEW.properties -> 'time'))
  ON CONFLICT (name, event_id) DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER event_queue_incident_transitions AFTER INSERT ON event_queue FOR EACH ROW
  WHEN (NEW.name IN ('check.passed', 'check.failed', 'component.status.healthy', 'component.status.unhealthy')
        AND (NEW.properties ? 'check_id' OR NEW.properties ? 'component_id'))
  EXECUTE FUNCTION incident_transition_subscription();
