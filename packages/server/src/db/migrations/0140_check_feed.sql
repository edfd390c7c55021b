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

-- The heads of the checks stored before this migration: check_feed_head(c) as it was then, written
-- out, since the function itself is defined after the migrations (health/sql).
INSERT INTO check_feed (check_id, head)
SELECT c.id, left(row_to_json(x)::text, -1)
FROM checks c
CROSS JOIN LATERAL (
  SELECT c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
    (SELECT json_build_object('id', ag.id, 'name', ag.name) FROM agents ag WHERE ag.id = c.agent_id) AS agent,
    c.name, c.namespace, c.description, c.type, c.icon, c.endpoint, c.owner, c.labels, c.severity
  FROM (SELECT 1) one
  LEFT JOIN canaries ca ON ca.id = c.canary_id
) x;

-- The functions, triggers and views of this change are kept in health/sql/20-health.sql.
