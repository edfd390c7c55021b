-- 0131: the incident list (incident_summary) made cheap per row, and indexes for its filters
-- (seed 001: status, severity, type, owner; newest first, with an exact count). Each filter's
-- index also carries created_at DESC, so a filtered page is read in order without a sort, and
-- the count of status + severity is an index-only scan. They replace the single-column indexes
-- of 0005 that they lead with.
DROP INDEX incidents_type_idx;
DROP INDEX incidents_severity_idx;
DROP INDEX incidents_created_by_idx;
CREATE INDEX incidents_type_created_idx ON incidents (type, created_at DESC);
CREATE INDEX incidents_severity_created_idx ON incidents (severity, created_at DESC);
CREATE INDEX incidents_created_by_created_idx ON incidents (created_by, created_at DESC);
CREATE INDEX incidents_status_severity_created_idx ON incidents (status, severity, created_at DESC);

-- A list row's responders: each name from its person or team by primary key (the 0009 version
-- joined people and teams per row, hashing the whole people table for every incident listed).
CREATE OR REPLACE VIEW incident_summary AS
SELECT i.id, i.incident_id, i.title, i.description, i.type, i.status, i.severity,
  i.commander_id, i.communicator_id, i.incident_rule_id, i.acknowledged, i.resolved, i.closed,
  i.created_by, i.created_at, i.updated_at,
  (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = i.commander_id) AS commander,
  (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = i.communicator_id) AS communicator,
  coalesce((
    SELECT jsonb_agg(CASE WHEN r.person_id IS NOT NULL
        THEN (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar, 'icon', NULL, 'type', r.type) FROM people p WHERE p.id = r.person_id)
        ELSE (SELECT jsonb_build_object('id', t.id, 'name', t.name, 'avatar', NULL, 'icon', t.icon, 'type', r.type) FROM teams t WHERE t.id = r.team_id)
      END ORDER BY r.created_at)
    FROM responders r
    WHERE r.incident_id = i.id AND r.deleted_at IS NULL), '[]'::jsonb) AS responders,
  coalesce((
    SELECT jsonb_agg(DISTINCT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar))
    FROM comments c JOIN people p ON p.id = c.created_by
    WHERE c.incident_id = i.id), '[]'::jsonb) AS commenters,
  (SELECT count(*) FROM hypotheses h WHERE h.incident_id = i.id) AS hypotheses_count,
  (SELECT count(*) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = i.id) AS evidences_count,
  (SELECT count(*) FROM comments c WHERE c.incident_id = i.id) AS comments_count
FROM incidents i;
