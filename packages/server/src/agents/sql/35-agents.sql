-- Agents: the list view, and what deleting an agent does. Applied after the versioned migrations
-- whenever this file changes (db/README.md): every statement can run again.

-- agents_summary: the Agents list (seed 000 sections 3 and 7): each live agent with the counts of
-- what it pushed and whether it is online (last_seen within 61 seconds, seed 000 section 9), and
-- how many of its pushed rows it holds parked (refused here for good; migration 0420).
-- The columns up to playbook_runs_count are those of the view settings/ used to define, so
-- CREATE OR REPLACE works on a database that has the older one.
CREATE OR REPLACE VIEW agents_summary AS
SELECT a.id, a.name, a.description, a.hostname, a.version, a.person_id, a.properties, a.spec,
  a.last_seen, a.last_received, a.cleanup, a.created_by, a.created_at, a.updated_at, a.deleted_at,
  (SELECT count(*) FROM config_items ci WHERE ci.agent_id = a.id AND ci.deleted_at IS NULL) AS config_count,
  (SELECT count(*) FROM checks c WHERE c.agent_id = a.id AND c.deleted_at IS NULL) AS checks_count,
  (SELECT count(*) FROM config_scrapers s WHERE s.agent_id = a.id AND s.deleted_at IS NULL) AS config_scrapper_count,
  (SELECT count(*) FROM playbook_runs r WHERE r.agent_id = a.id) AS playbook_runs_count,
  coalesce(a.last_seen > now() - interval '61 seconds', false) AS online,
  (SELECT count(*) FROM agent_parked_rows p WHERE p.agent_id = a.id) AS parked_count
FROM agents a
WHERE a.deleted_at IS NULL;

-- Before an update: the local agent (the server itself) is not deleted; a deletion is final (its
-- token and identity are gone with it). The name is read-only to callers of /api/db (agentWrites
-- in index.ts takes no name), not here: the health summary and other readers follow a rename.
CREATE OR REPLACE FUNCTION agents_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.id = '00000000-0000-0000-0000-000000000000' AND NEW.deleted_at IS NOT NULL THEN
    RAISE EXCEPTION 'The local agent cannot be deleted' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
    RAISE EXCEPTION 'A deleted agent cannot be restored: generate a new one' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS agents_guard ON agents;
CREATE TRIGGER agents_guard BEFORE UPDATE ON agents FOR EACH ROW EXECUTE FUNCTION agents_guard();

-- A hard delete (an administrator through /api/db) ends the agent's identity as a soft one does;
-- the local agent stays.
CREATE OR REPLACE FUNCTION agents_before_remove() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.id = '00000000-0000-0000-0000-000000000000' THEN
    RAISE EXCEPTION 'The local agent cannot be deleted' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.person_id IS NOT NULL THEN
    UPDATE access_tokens SET deleted_at = now() WHERE person_id = OLD.person_id AND deleted_at IS NULL;
    UPDATE people SET deleted_at = now() WHERE id = OLD.person_id AND type = 'agent' AND deleted_at IS NULL;
  END IF;
  RETURN OLD;
END
$$;
DROP TRIGGER IF EXISTS agents_before_remove ON agents;
CREATE TRIGGER agents_before_remove BEFORE DELETE ON agents FOR EACH ROW EXECUTE FUNCTION agents_before_remove();

-- After a soft delete (seed 000 section 4): the agent's tokens are revoked and its identity
-- deleted, so its token is refused from the next request on; with cleanup the resources it
-- pushed or was assigned are soft-deleted too (their history stays).
CREATE OR REPLACE FUNCTION agents_after_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
    IF NEW.person_id IS NOT NULL THEN
      UPDATE access_tokens SET deleted_at = now() WHERE person_id = NEW.person_id AND deleted_at IS NULL;
      UPDATE people SET deleted_at = now() WHERE id = NEW.person_id AND type = 'agent' AND deleted_at IS NULL;
    END IF;
    IF NEW.cleanup THEN
      UPDATE checks SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
      UPDATE canaries SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
      UPDATE config_items SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
      UPDATE config_scrapers SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
      UPDATE components SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
      UPDATE topologies SET deleted_at = now() WHERE agent_id = NEW.id AND deleted_at IS NULL;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS agents_after_delete ON agents;
CREATE TRIGGER agents_after_delete AFTER UPDATE OF deleted_at ON agents FOR EACH ROW
EXECUTE FUNCTION agents_after_delete();
