-- 0205: the event bus (server jobs/README.md). An event is delivered to every named consumer
-- that subscribes to its name, each with its own attempts, backoff, error and done state, so one
-- failing consumer neither blocks nor repeats another.
--   * event_consumers: who consumes which event names; each server process that runs the engines
--     upserts its consumers at start (and hourly), so publish_event() knows whom to fan out to
--     even when it runs in a trigger of another process;
--   * event_queue: the events (what happened), unique per (name, event_id);
--   * event_deliveries: one row per (event, consumer): pending, running (claimed until
--     next_attempt_at, the claim's lease), done or failed (dead letter);
--   * publish_event(): the only writer of both. An event no consumer wants is not stored.
-- The copy trigger of 0105 (incident.resource.transition) goes: incidents consume check.* and
-- component.status.* as a consumer of their own.

DROP VIEW IF EXISTS event_queue_summary;
DROP TRIGGER IF EXISTS event_queue_incident_transitions ON event_queue;
DROP FUNCTION IF EXISTS incident_transition_subscription();

CREATE TABLE event_consumers (
  name    text PRIMARY KEY,
  events  text[] NOT NULL,
  -- refreshed by every process running the consumer; one unseen for 7 days is dropped
  seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE event_deliveries (
  event_id        uuid NOT NULL REFERENCES event_queue (id) ON DELETE CASCADE,
  consumer        text NOT NULL REFERENCES event_consumers (name) ON DELETE CASCADE,
  -- the delivery's idempotency key (an email's Message-ID): not indexed, nothing looks it up
  id              uuid NOT NULL DEFAULT gen_random_uuid(),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  -- pending: when it is due; running: when the claim expires and another worker may take it over
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_attempt    timestamptz,
  error           text,
  -- the token of the current claim: only its holder records the outcome
  claim           uuid,
  done_at         timestamptz,
  PRIMARY KEY (event_id, consumer)
);
-- A worker's claim reads each of its consumers' earliest due delivery from here, in order. Two
-- indexes only: a delivery is updated twice (claimed, done) and every index costs each update;
-- deleting a consumer (stale for 7 days) may scan the table.
CREATE INDEX event_deliveries_due_idx ON event_deliveries (consumer, next_attempt_at) WHERE status IN ('pending', 'running');

-- Events queued before this migration. The copies 0105 made for incidents become the originals
-- again (the originals themselves had no consumer: issue 13's pile-up); everything else goes to
-- the consumer that handled its name, with its attempts and error; events nobody consumes go.
DELETE FROM event_queue WHERE name IN ('check.passed', 'check.failed', 'component.status.healthy', 'component.status.unhealthy');
UPDATE event_queue SET
  name = properties ->> 'source_event',
  event_id = substr(event_id, length(properties ->> 'source_event') + 2),
  properties = jsonb_build_object((properties ->> 'kind') || '_id', properties ->> 'resource_id',
    'status', properties ->> 'status', 'time', properties -> 'time')
WHERE name = 'incident.resource.transition' AND properties ? 'source_event';
INSERT INTO event_consumers (name, events)
SELECT c.name, c.events FROM (VALUES
    ('incidents', ARRAY['check.passed', 'check.failed', 'component.status.healthy', 'component.status.unhealthy']),
    ('incidents.responder-dispatch', ARRAY['incident.responder.dispatch']),
    ('incidents.mentions', ARRAY['incident.comment.mentions']),
    ('incidents.mention-email', ARRAY['incident.comment.mention'])
  ) c (name, events)
WHERE EXISTS (SELECT 1 FROM event_queue e WHERE e.name = ANY (c.events));
INSERT INTO event_deliveries (event_id, consumer, status, attempts, next_attempt_at, last_attempt, error)
SELECT e.id, c.name, e.status, e.attempts, e.next_attempt_at, e.last_attempt, e.error
FROM event_queue e JOIN event_consumers c ON e.name = ANY (c.events);
DELETE FROM event_queue e WHERE NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = e.id);

-- What a delivery owns moves off the event.
ALTER TABLE event_queue DROP COLUMN status, DROP COLUMN attempts, DROP COLUMN last_attempt,
  DROP COLUMN next_attempt_at, DROP COLUMN error, DROP COLUMN priority;

-- The functions, triggers and views of this change are kept in jobs/sql/10-events.sql.
