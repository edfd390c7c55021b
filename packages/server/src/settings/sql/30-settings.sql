-- Settings resources: the lists with their latest job, and the source guard.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- canaries_with_status: Health Check settings list.
CREATE OR REPLACE VIEW canaries_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM canaries t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- topologies_with_status: Topology settings list.
CREATE OR REPLACE VIEW topologies_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name, 'description', a.description) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM topologies t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- config_scrapers_with_status: Catalog Scraper settings list and /catalog/scrapers.
CREATE OR REPLACE VIEW config_scrapers_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM config_scrapers t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- teams_with_status: Teams settings list.
CREATE OR REPLACE VIEW teams_with_status AS
SELECT t.*,
  (SELECT count(*) FROM team_members m WHERE m.team_id = t.id) AS member_count,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM teams t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- logging_backends_with_status: Log Backends settings list.
CREATE OR REPLACE VIEW logging_backends_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM logging_backends t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- integrations_with_status: the Integrations list: scrapers, topologies and logging backends.
CREATE OR REPLACE VIEW integrations_with_status AS
SELECT i.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = i.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start
FROM (
  SELECT id, name, namespace, source, 'scrapers'::text AS integration_type, agent_id, labels, description,
    created_by, created_at, updated_at, deleted_at FROM config_scrapers
  UNION ALL
  SELECT id, name, namespace, source, 'topologies', agent_id, labels, NULL,
    created_by, created_at, updated_at, deleted_at FROM topologies
  UNION ALL
  SELECT id, name, namespace, source, 'logging_backends', agent_id, labels, NULL,
    created_by, created_at, updated_at, deleted_at FROM logging_backends
) i
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = i.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- A settings resource that comes from somewhere else (source KubernetesCRD, a GitOps sync, ...)
-- is changed there, not by a person in the console (seed 002 sections 4 and 5). Refused: an
-- UPDATE or DELETE made for a person (request.person_id set, as /api/db sets it for every
-- write). Engines and loaders set no person; the foreign keys' own updates run at trigger depth
-- 2. SQLSTATE PT409 answers 409 through /api/db with this message.
CREATE OR REPLACE FUNCTION refuse_foreign_source_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 AND request_person_id() IS NOT NULL AND coalesce(OLD.source, '') NOT IN ('', 'UI') THEN
    RAISE EXCEPTION '% "%" comes from % and can only be changed there', TG_ARGV[0], coalesce(OLD.name, OLD.id::text), OLD.source
      USING ERRCODE = 'PT409', HINT = 'Only resources whose source is UI are edited in the console';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

DROP TRIGGER IF EXISTS canaries_source_guard ON canaries;
CREATE TRIGGER canaries_source_guard BEFORE UPDATE OR DELETE ON canaries
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Health check');

DROP TRIGGER IF EXISTS topologies_source_guard ON topologies;
CREATE TRIGGER topologies_source_guard BEFORE UPDATE OR DELETE ON topologies
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Topology');

DROP TRIGGER IF EXISTS config_scrapers_source_guard ON config_scrapers;
CREATE TRIGGER config_scrapers_source_guard BEFORE UPDATE OR DELETE ON config_scrapers
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Catalog scraper');

DROP TRIGGER IF EXISTS teams_source_guard ON teams;
CREATE TRIGGER teams_source_guard BEFORE UPDATE OR DELETE ON teams
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Team');

DROP TRIGGER IF EXISTS logging_backends_source_guard ON logging_backends;
CREATE TRIGGER logging_backends_source_guard BEFORE UPDATE OR DELETE ON logging_backends
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Log backend');

DROP TRIGGER IF EXISTS notifications_source_guard ON notifications;
CREATE TRIGGER notifications_source_guard BEFORE UPDATE OR DELETE ON notifications
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Notification');
