-- Who is writing: the caller of /api/db as the database sees it, and created_by set from it.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- The caller of the current transaction, or NULL (background jobs, migrations).
CREATE OR REPLACE FUNCTION request_person_id() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('request.person_id', true), '')::uuid
$$;

-- The caller's roles ('{}' outside /api/db).
CREATE OR REPLACE FUNCTION request_roles() RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_to_array(nullif(current_setting('request.roles', true), ''), ','), '{}'::text[])
$$;

CREATE OR REPLACE FUNCTION created_by_caller() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- Every table /api/db writes that has a created_by column has this trigger (db/exposed.ts; the
-- test test/incidents/actor.test.ts checks each one); the incidents area's tables get theirs in
-- incidents/sql. Named to fire after the tables' other BEFORE triggers (they fire in name order):
-- it has the last word, and a table's own stricter check still sees what the client sent.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['teams', 'saved_searches', 'agents', 'canaries', 'checks', 'config_items',
    'config_changes', 'config_analysis', 'config_relationships', 'config_scrapers', 'topologies', 'components',
    'config_component_relationships', 'playbooks', 'playbook_runs', 'notifications', 'notification_silences',
    'connections', 'logging_backends']
  LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS zz_created_by_caller ON %I', t);
    EXECUTE format('CREATE TRIGGER zz_created_by_caller BEFORE INSERT OR UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION created_by_caller()', t);
  END LOOP;
END
$$;
