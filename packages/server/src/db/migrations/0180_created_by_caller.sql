-- 0180: who created a row is the caller, never what the client says (issue 12 point 6; seed 001
-- section 6: "The current user is recorded as creator of incidents, comments and responders").
-- A responder could post a comment or an incident as the admin by sending `created_by`, and edit
-- or delete other people's comments.
--
-- The /api/db engine starts every transaction it opens with the caller's id and roles as
-- transaction-local settings (`request.person_id`, `request.roles`; pgrest/index.ts `actor`).
-- When they are set:
--   * an INSERT's created_by is the caller, whatever the body said;
--   * an UPDATE keeps created_by as it was (an upsert's DO UPDATE included);
--   * only a comment's author or an admin may edit or delete it (403 via /api/db).
-- Without them (engines, server code, migrations, the demo seed) rows are written as given.
-- Updates and deletes made by the database itself on behalf of a statement (ON DELETE CASCADE
-- from a hypothesis, ON DELETE SET NULL from people) run at trigger depth > 1 and are left alone:
-- deleting a hypothesis one may write removes its comments with it.

-- The caller's roles ('{}' outside /api/db).
CREATE FUNCTION request_roles() RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_to_array(nullif(current_setting('request.roles', true), ''), ','), '{}'::text[])
$$;

CREATE FUNCTION created_by_caller() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  caller uuid := request_person_id();
BEGIN
  IF caller IS NULL THEN RETURN NEW; END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := caller;
  ELSIF pg_trigger_depth() = 1 THEN
    NEW.created_by := OLD.created_by;
  END IF;
  RETURN NEW;
END
$$;

-- Every table /api/db writes that has a created_by column (db/exposed.ts; the test
-- test/incidents/actor.test.ts checks that each such table has this trigger). Named to fire
-- after the tables' other BEFORE triggers (they fire in name order): it has the last word, and a
-- table's own stricter check still sees what the client sent (responders_guard answers 400 to a
-- changed creator).
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['teams', 'saved_searches', 'agents', 'canaries', 'checks', 'config_items',
    'config_changes', 'config_analysis', 'config_relationships', 'config_scrapers', 'topologies', 'components',
    'config_component_relationships', 'incidents', 'incident_rules', 'hypotheses', 'evidences', 'comments',
    'responders', 'playbooks', 'playbook_runs', 'notifications', 'notification_silences', 'connections',
    'logging_backends']
  LOOP
    EXECUTE format('CREATE TRIGGER zz_created_by_caller BEFORE INSERT OR UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION created_by_caller()', t);
  END LOOP;
END
$$;

-- Comments: the author or an admin edits and deletes; others get insufficient_privilege (403).
CREATE FUNCTION comments_author_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  caller uuid := request_person_id();
BEGIN
  IF caller IS NULL OR pg_trigger_depth() > 1 OR 'admin' = ANY (request_roles())
     OR OLD.created_by IS NOT DISTINCT FROM caller THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  RAISE EXCEPTION 'Only the author of a comment or an admin can edit or delete it'
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER comments_author_only BEFORE UPDATE OR DELETE ON comments FOR EACH ROW
  EXECUTE FUNCTION comments_author_only();
