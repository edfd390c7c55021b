-- The health summary's JSON of each check's own columns (health/summary.ts), kept up to date here.
--
-- Rendering those columns with row_to_json for every check on every request cost PostgreSQL 15
-- about 25-30 ms for 5,000 checks (it looks up each value's output category on every row). They
-- change only when a canary spec is synced or a canary or agent is renamed, so the text is
-- rendered then, once per check. The columns a check run changes (status and the run times) are
-- not in it: the summary appends them, so recording a run writes nothing here.
--
-- `head` is the check's JSON object without its closing brace: the summary continues it with
-- ,"status":...,"deleted_at":... and the uptime and latency objects, in the feed's key order.

CREATE TABLE check_feed (
  check_id uuid PRIMARY KEY REFERENCES checks(id) ON DELETE CASCADE,
  head     text NOT NULL
);

CREATE FUNCTION check_feed_head(c checks) RETURNS text
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

CREATE FUNCTION check_feed_from_checks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_feed (check_id, head) VALUES (NEW.id, check_feed_head(NEW))
  ON CONFLICT (check_id) DO UPDATE SET head = EXCLUDED.head;
  RETURN NULL;
END
$$;

-- only the columns in the head: a check run's UPDATE of status and run times does not fire it
CREATE TRIGGER check_feed_checks
AFTER INSERT OR UPDATE OF id, canary_id, agent_id, name, namespace, description, type, icon, endpoint, owner, labels, severity
ON checks FOR EACH ROW EXECUTE FUNCTION check_feed_from_checks();

CREATE FUNCTION check_feed_from_canaries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_feed f SET head = check_feed_head(c) FROM checks c WHERE c.canary_id = NEW.id AND f.check_id = c.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER check_feed_canaries
AFTER UPDATE OF name, namespace ON canaries FOR EACH ROW
WHEN (NEW.name IS DISTINCT FROM OLD.name OR NEW.namespace IS DISTINCT FROM OLD.namespace)
EXECUTE FUNCTION check_feed_from_canaries();

-- a renamed agent changes the "agent" object of its checks (a check can only name an agent that
-- exists: checks.agent_id references agents, so a new agent has no checks yet)
CREATE FUNCTION check_feed_from_agents() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_feed f SET head = check_feed_head(c) FROM checks c WHERE c.agent_id = NEW.id AND f.check_id = c.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER check_feed_agents
AFTER UPDATE OF name ON agents FOR EACH ROW
WHEN (NEW.name IS DISTINCT FROM OLD.name)
EXECUTE FUNCTION check_feed_from_agents();

INSERT INTO check_feed (check_id, head) SELECT c.id, check_feed_head(c) FROM checks c;
