-- Events, job history and the queue pages.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- The display name of the resource a job_history / notification row refers to (by id, whatever
-- its table). NULL when the id is not a uuid or matches nothing.
CREATE OR REPLACE FUNCTION resource_name(resource_id text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN resource_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN COALESCE(
    (SELECT name FROM canaries WHERE id = resource_id::uuid),
    (SELECT name FROM checks WHERE id = resource_id::uuid),
    (SELECT name FROM topologies WHERE id = resource_id::uuid),
    (SELECT name FROM config_scrapers WHERE id = resource_id::uuid),
    (SELECT name FROM logging_backends WHERE id = resource_id::uuid),
    (SELECT coalesce(name, title) FROM notifications WHERE id = resource_id::uuid),
    (SELECT name FROM playbooks WHERE id = resource_id::uuid),
    (SELECT name FROM teams WHERE id = resource_id::uuid),
    (SELECT name FROM incident_rules WHERE id = resource_id::uuid),
    (SELECT name FROM components WHERE id = resource_id::uuid),
    (SELECT name FROM config_items WHERE id = resource_id::uuid),
    (SELECT name FROM agents WHERE id = resource_id::uuid)
  ) END
$$;

-- job_histories: the Jobs History list: job_history with the resource's name. It shows the
-- agent of each run (seed 002 section 3: "agent (id, name)").
-- CREATE OR REPLACE VIEW may only add columns at the end, so `agent` comes last.
CREATE OR REPLACE VIEW job_histories AS
SELECT h.id, h.name, h.resource_type, h.resource_id, resource_name(h.resource_id) AS resource_name,
  h.agent_id, h.hostname, h.status, h.success_count, h.error_count, h.duration_millis, h.details,
  h.time_start, h.time_end, h.created_at,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = h.agent_id) AS agent
FROM job_history h;

-- job_history_names: distinct job names (Job Name filter).
CREATE OR REPLACE VIEW job_history_names AS
SELECT DISTINCT name FROM job_history;

-- event_queue_summary: the Event Queue page: the backlog per event name and consumer (done
-- deliveries are not backlog): waiting or in flight, dead-lettered, attempts, failures.
CREATE OR REPLACE VIEW event_queue_summary AS
SELECT e.name, d.consumer,
  count(*) FILTER (WHERE d.status IN ('pending', 'running')) AS pending,
  count(*) FILTER (WHERE d.status = 'failed') AS failed,
  round(avg(d.attempts), 2) AS average_attempts,
  min(d.last_attempt) FILTER (WHERE d.error IS NOT NULL) AS first_failure,
  max(d.last_attempt) FILTER (WHERE d.error IS NOT NULL) AS last_failure,
  mode() WITHIN GROUP (ORDER BY d.error) FILTER (WHERE d.error IS NOT NULL) AS most_common_error
FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
WHERE d.status <> 'done'
GROUP BY e.name, d.consumer;

-- publish_event(name, resource_id, properties): stores the event with one delivery per consumer
-- of its name and returns its id; NULL when no consumer subscribes to the name (nothing is
-- stored) or when (name, resource_id) is already stored (publishing twice is a no-op).
-- resource_id names what the event is about; an event that recurs for one resource carries the
-- occurrence too (`<check id>/<run time>`). Done events are kept an hour (jobs/event-queue.ts
-- prune), so a repeat within that hour is still a no-op.
CREATE OR REPLACE FUNCTION publish_event(name text, resource_id text, properties jsonb DEFAULT '{}'::jsonb)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  consumers text[];
  new_id uuid;
BEGIN
  SELECT array_agg(c.name) INTO consumers FROM event_consumers c WHERE publish_event.name = ANY (c.events);
  IF consumers IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO event_queue (name, event_id, properties)
  VALUES (publish_event.name, publish_event.resource_id, coalesce(publish_event.properties, '{}'::jsonb))
  ON CONFLICT ON CONSTRAINT event_queue_name_event_id_key DO NOTHING
  RETURNING id INTO new_id;
  IF new_id IS NOT NULL THEN
    INSERT INTO event_deliveries (event_id, consumer) SELECT new_id, unnest(consumers);
  END IF;
  RETURN new_id;
END
$$;
