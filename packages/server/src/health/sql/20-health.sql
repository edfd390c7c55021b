-- Health checks: the summary views and the JSON heads of the summary feed (check_feed).
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- checks_summary: the health summary feed: every live check with its canary, uptime
-- {passed, failed, last_pass, last_fail} and latency {p95, p97, p99, rolling1h} over 24 hours.
CREATE OR REPLACE VIEW checks_summary AS
SELECT c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
  c.name, c.namespace, c.description, c.type, c.icon, c.endpoint, c.owner, c.labels, c.severity, c.status,
  c.last_runtime, c.next_runtime, c.last_transition_time, c.silenced_at, c.created_at, c.updated_at, c.deleted_at,
  jsonb_build_object('passed', coalesce(s.passed, 0), 'failed', coalesce(s.failed, 0),
    'last_pass', s.last_pass, 'last_fail', s.last_fail) AS uptime,
  jsonb_build_object('p95', s.p95, 'p97', s.p97, 'p99', s.p99, 'rolling1h', s.rolling1h) AS latency
FROM checks c
JOIN canaries ca ON ca.id = c.canary_id
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE cs.status) AS passed,
    count(*) FILTER (WHERE NOT cs.status) AS failed,
    max(cs.time) FILTER (WHERE cs.status) AS last_pass,
    max(cs.time) FILTER (WHERE NOT cs.status) AS last_fail,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY cs.duration) AS p95,
    percentile_disc(0.97) WITHIN GROUP (ORDER BY cs.duration) AS p97,
    percentile_disc(0.99) WITHIN GROUP (ORDER BY cs.duration) AS p99,
    round(avg(cs.duration) FILTER (WHERE cs.time > now() - interval '1 hour'))::integer AS rolling1h
  FROM check_statuses cs
  WHERE cs.check_id = c.id AND cs.time > now() - interval '24 hours'
) s ON true
WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL;

-- check_labels: distinct label key/value pairs of live checks (Filter by Label).
CREATE OR REPLACE VIEW check_labels AS
SELECT DISTINCT l.key, l.value
FROM checks c, jsonb_each_text(coalesce(c.labels, '{}'::jsonb)) l
WHERE c.deleted_at IS NULL;

-- check_relationships: the Relationships tab of a check: the configs and components it watches.
CREATE OR REPLACE VIEW check_relationships AS
SELECT r.check_id, c.id, c.name, 'config'::text AS type, c.type AS kind, c.health AS status, c.deleted_at
FROM check_config_relationships r
JOIN config_items c ON c.id = r.config_id
WHERE r.deleted_at IS NULL
UNION ALL
SELECT r.check_id, c.id, c.name, 'component'::text, c.type, c.status, c.deleted_at
FROM check_component_relationships r
JOIN components c ON c.id = r.component_id
WHERE r.deleted_at IS NULL;

-- check_feed: the health summary's JSON of each check's own columns (health/summary.ts), rendered
-- when they change (a canary spec synced, a canary or agent renamed) instead of on every request.
-- The head is the check's JSON object without its closing brace: the summary appends status, run
-- times, uptime and latency. check_feed_state.version moves with every change of a head.
CREATE OR REPLACE FUNCTION check_feed_head(c checks) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT left(row_to_json(x)::text, -1)
  FROM (
    SELECT c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
      (SELECT json_build_object('id', ag.id, 'name', ag.name) FROM agents ag WHERE ag.id = c.agent_id) AS agent,
      c.name, c.namespace, c.description, c.type, c.icon, c.endpoint, c.owner, c.labels, c.severity
    FROM (SELECT 1) one
    LEFT JOIN canaries ca ON ca.id = c.canary_id
  ) x
$$;

CREATE OR REPLACE FUNCTION check_feed_from_checks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_feed (check_id, head) VALUES (NEW.id, check_feed_head(NEW))
  ON CONFLICT (check_id) DO UPDATE SET head = EXCLUDED.head;
  RETURN NULL;
END
$$;

-- only the columns in the head: a check run's UPDATE of status and run times does not fire it
DROP TRIGGER IF EXISTS check_feed_checks ON checks;
CREATE TRIGGER check_feed_checks
AFTER INSERT OR UPDATE OF id, canary_id, agent_id, name, namespace, description, type, icon, endpoint, owner, labels, severity
ON checks FOR EACH ROW EXECUTE FUNCTION check_feed_from_checks();

CREATE OR REPLACE FUNCTION check_feed_from_canaries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_feed f SET head = check_feed_head(c) FROM checks c WHERE c.canary_id = NEW.id AND f.check_id = c.id;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS check_feed_canaries ON canaries;
CREATE TRIGGER check_feed_canaries
AFTER UPDATE OF name, namespace ON canaries FOR EACH ROW
WHEN (NEW.name IS DISTINCT FROM OLD.name OR NEW.namespace IS DISTINCT FROM OLD.namespace)
EXECUTE FUNCTION check_feed_from_canaries();

-- a renamed agent changes the "agent" object of its checks (a check can only name an agent that
-- exists: checks.agent_id references agents, so a new agent has no checks yet)
CREATE OR REPLACE FUNCTION check_feed_from_agents() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_feed f SET head = check_feed_head(c) FROM checks c WHERE c.agent_id = NEW.id AND f.check_id = c.id;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS check_feed_agents ON agents;
CREATE TRIGGER check_feed_agents
AFTER UPDATE OF name ON agents FOR EACH ROW
WHEN (NEW.name IS DISTINCT FROM OLD.name)
EXECUTE FUNCTION check_feed_from_agents();

CREATE OR REPLACE FUNCTION check_feed_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_feed_state SET version = version + 1;
  RETURN NULL;
END
$$;

-- per statement on check_feed (the check triggers write one statement per check, an upsert fires
-- both its INSERT and UPDATE triggers: the number may move several times in one change, which
-- only matters as "it moved"); deleting a check deletes its head by cascade, which fires this too
DROP TRIGGER IF EXISTS check_feed_changed ON check_feed;
CREATE TRIGGER check_feed_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON check_feed
FOR EACH STATEMENT EXECUTE FUNCTION check_feed_bump();
