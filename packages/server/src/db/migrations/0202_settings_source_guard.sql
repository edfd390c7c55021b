-- 0202: a settings resource that comes from somewhere else (source KubernetesCRD, a GitOps sync,
-- ...) is changed there, not by a person in the console (seed 002 sections 4 and 5: no Save
-- unless the source is UI or empty; the source is read-only). The web app hides Save, Update
-- and Delete for such a row; this refuses the write itself: an UPDATE (a PATCH, a soft delete,
-- an upsert) or DELETE made for a person, i.e. with request.person_id set as the /api/db engine
-- sets it for every write (0102). Engines and loaders set no person and stay free to write; so
-- do the foreign keys' own updates (created_by set null when a person goes: trigger depth 2).
-- RAISE SQLSTATE 'PT409' answers 409 through /api/db with this message.

CREATE FUNCTION refuse_foreign_source_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 AND request_person_id() IS NOT NULL AND coalesce(OLD.source, '') NOT IN ('', 'UI') THEN
    RAISE EXCEPTION '% "%" comes from % and can only be changed there', TG_ARGV[0], coalesce(OLD.name, OLD.id::text), OLD.source
      USING ERRCODE = 'PT409', HINT = 'Only resources whose source is UI are edited in the console';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

CREATE TRIGGER canaries_source_guard BEFORE UPDATE OR DELETE ON canaries
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Health check');
CREATE TRIGGER topologies_source_guard BEFORE UPDATE OR DELETE ON topologies
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Topology');
CREATE TRIGGER config_scrapers_source_guard BEFORE UPDATE OR DELETE ON config_scrapers
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Catalog scraper');
CREATE TRIGGER teams_source_guard BEFORE UPDATE OR DELETE ON teams
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Team');
CREATE TRIGGER incident_rules_source_guard BEFORE UPDATE OR DELETE ON incident_rules
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Incident rule');
CREATE TRIGGER logging_backends_source_guard BEFORE UPDATE OR DELETE ON logging_backends
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Log backend');
CREATE TRIGGER notifications_source_guard BEFORE UPDATE OR DELETE ON notifications
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Notification');
