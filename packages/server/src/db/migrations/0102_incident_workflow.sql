-- 0102: incidents enforced by the database (seed 001 sections 3-4, seed 000 section 9):
--   * the status workflow: a move the status table does not offer is refused (400 via /api/db);
--   * severity and type vocabularies, with severity's numeric codes (1 medium, 2 high,
--     3 blocker, 4 critical, any other number low);
--   * new hypotheses start 'possible';
--   * the changelog (incident_histories) written by triggers, so it lands in the same
--     transaction as the change whatever path made it (/api/db, server code, a psql session).
-- The actor is the transaction-local setting `request.person_id`, which the /api/db engine sets
-- for every write (pgrest/index.ts `actor`); creators default to it. Bulk loaders that write
-- their own backdated changelog (the demo seed) turn the history triggers off for their
-- transaction with set_config('watchdeck.incident_history', 'off', true).
-- Deleting a hypothesis removes its comments, evidence and sub-hypotheses through the
-- ON DELETE CASCADE keys of 0005, i.e. in the DELETE's own statement and transaction.

-- The caller of the current transaction, or NULL (background jobs, migrations).
CREATE FUNCTION request_person_id() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('request.person_id', true), '')::uuid
$$;

CREATE FUNCTION incident_history_enabled() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('watchdeck.incident_history', true), '') <> 'off'
$$;

-- The status table of seed 001 section 4: the statuses one may move to from `from_status`.
CREATE FUNCTION incident_status_moves(from_status text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE from_status
    WHEN 'new'           THEN ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'open'          THEN ARRAY['open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'investigating' THEN ARRAY['investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'mitigated'     THEN ARRAY['resolved', 'closed', 'open']
    WHEN 'resolved'      THEN ARRAY['closed', 'open']
    WHEN 'closed'        THEN ARRAY['open']
    ELSE ARRAY[]::text[]
  END
$$;

-- Vocabulary and workflow checks, creator default and the acknowledged/resolved/closed stamps.
-- Errors are check_violation (23514) so /api/db answers 400 with the message as written.
CREATE FUNCTION incidents_enforce() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  statuses constant text[] := ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'];
  severities constant text[] := ARRAY['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'];
  types constant text[] := ARRAY['cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability'];
  allowed text[];
BEGIN
  -- numeric severity codes (integrations send them): 1 medium, 2 high, 3 blocker, 4 critical, else low
  IF NEW.severity ~ '^\s*-?\d+\s*$' THEN
    NEW.severity := CASE btrim(NEW.severity) WHEN '1' THEN 'medium' WHEN '2' THEN 'high' WHEN '3' THEN 'blocker' WHEN '4' THEN 'critical' ELSE 'low' END;
  END IF;
  IF NEW.severity IS NOT NULL AND NOT NEW.severity = ANY (severities) THEN
    RAISE EXCEPTION 'Unknown incident severity "%"', NEW.severity USING ERRCODE = 'check_violation',
      HINT = 'Severity is one of ' || array_to_string(severities, ', ') || ', or a numeric code 1-4';
  END IF;
  IF NEW.type IS NOT NULL AND NOT NEW.type = ANY (types) THEN
    RAISE EXCEPTION 'Unknown incident type "%"', NEW.type USING ERRCODE = 'check_violation',
      HINT = 'Type is one of ' || array_to_string(types, ', ');
  END IF;
  IF NEW.status IS NOT NULL AND NOT NEW.status = ANY (statuses) THEN
    RAISE EXCEPTION 'Unknown incident status "%"', NEW.status USING ERRCODE = 'check_violation',
      HINT = 'Status is one of ' || array_to_string(statuses, ', ');
  END IF;

  IF TG_OP = 'INSERT' THEN
    NEW.created_by := coalesce(NEW.created_by, request_person_id());
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    allowed := incident_status_moves(OLD.status);
    IF NOT NEW.status = ANY (allowed) THEN
      RAISE EXCEPTION 'Incident status cannot change from "%" to "%"', OLD.status, NEW.status USING ERRCODE = 'check_violation',
        DETAIL = 'From ' || OLD.status || ' the status can move to: ' || array_to_string(allowed, ', ');
    END IF;
  END IF;

  -- first time the incident reached these states
  IF NEW.status IN ('investigating', 'mitigated', 'resolved', 'closed') THEN NEW.acknowledged := coalesce(NEW.acknowledged, now()); END IF;
  IF NEW.status IN ('resolved', 'closed') THEN NEW.resolved := coalesce(NEW.resolved, now()); END IF;
  IF NEW.status = 'closed' THEN NEW.closed := coalesce(NEW.closed, now()); END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER incidents_enforce BEFORE INSERT OR UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_enforce();

-- One changelog row; the actor is the caller, else the row's own creator.
CREATE FUNCTION incident_history_add(p_incident uuid, p_type text, p_description text, p_by uuid,
  p_hypothesis uuid DEFAULT NULL, p_evidence uuid DEFAULT NULL, p_responder uuid DEFAULT NULL, p_comment uuid DEFAULT NULL)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO incident_histories (incident_id, type, description, created_by, hypothesis_id, evidence_id, responder_id, comment_id)
  VALUES (p_incident, p_type, p_description, coalesce(request_person_id(), p_by), p_hypothesis, p_evidence, p_responder, p_comment)
$$;

CREATE FUNCTION incidents_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.id, 'incident.created', NEW.title, NEW.created_by);
    RETURN NULL;
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM incident_history_add(NEW.id, 'incident.status_updated', OLD.status || ' → ' || NEW.status, NULL);
  END IF;
  IF NEW.severity IS DISTINCT FROM OLD.severity THEN
    PERFORM incident_history_add(NEW.id, 'incident.severity_updated', OLD.severity || ' → ' || NEW.severity, NULL);
  END IF;
  IF NEW.type IS DISTINCT FROM OLD.type THEN
    PERFORM incident_history_add(NEW.id, 'incident.type_updated', OLD.type || ' → ' || NEW.type, NULL);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER incidents_history AFTER INSERT OR UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_history();

-- Hypotheses: creator default, and an explicit null status still starts as 'possible'.
CREATE FUNCTION hypotheses_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  NEW.status := coalesce(NEW.status, 'possible');
  RETURN NEW;
END
$$;
CREATE TRIGGER hypotheses_defaults BEFORE INSERT ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_defaults();

CREATE FUNCTION hypotheses_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.incident_id, 'hypothesis.created', NEW.title, NEW.created_by, p_hypothesis => NEW.id);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM incident_history_add(NEW.incident_id, 'hypothesis.status_updated', OLD.status || ' → ' || NEW.status, NULL, p_hypothesis => NEW.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER hypotheses_history AFTER INSERT OR UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_history();

CREATE FUNCTION evidences_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  RETURN NEW;
END
$$;
CREATE TRIGGER evidences_defaults BEFORE INSERT ON evidences FOR EACH ROW EXECUTE FUNCTION evidences_defaults();

-- Evidence: created, and added to / removed from the definition of done (a manual definition
-- of done is created with definition_of_done already true: both rows are written).
CREATE FUNCTION evidences_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inc uuid;
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  SELECT incident_id INTO inc FROM hypotheses WHERE id = NEW.hypothesis_id;
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(inc, 'evidence.created', coalesce(NEW.description, NEW.type), NEW.created_by,
      p_hypothesis => NEW.hypothesis_id, p_evidence => NEW.id);
    IF NEW.definition_of_done THEN
      PERFORM incident_history_add(inc, 'evidence.done_definition_added', coalesce(NEW.description, NEW.type), NEW.created_by,
        p_hypothesis => NEW.hypothesis_id, p_evidence => NEW.id);
    END IF;
  ELSIF NEW.definition_of_done IS DISTINCT FROM OLD.definition_of_done THEN
    PERFORM incident_history_add(inc,
      CASE WHEN NEW.definition_of_done THEN 'evidence.done_definition_added' ELSE 'evidence.done_definition_removed' END,
      coalesce(NEW.description, NEW.type), NULL, p_hypothesis => NEW.hypothesis_id, p_evidence => NEW.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER evidences_history AFTER INSERT OR UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION evidences_history();

CREATE FUNCTION responders_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  RETURN NEW;
END
$$;
CREATE TRIGGER responders_defaults BEFORE INSERT ON responders FOR EACH ROW EXECUTE FUNCTION responders_defaults();

-- Responders are removed by setting deleted_at (seed 001 section 7); that is 'responder.deleted'.
CREATE FUNCTION responders_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  who text;
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  SELECT coalesce((SELECT name FROM people WHERE id = NEW.person_id), (SELECT name FROM teams WHERE id = NEW.team_id)) INTO who;
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.incident_id, 'responder.created', who, NEW.created_by, p_responder => NEW.id);
  ELSIF NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN
    PERFORM incident_history_add(NEW.incident_id, 'responder.deleted', who, NULL, p_responder => NEW.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER responders_history AFTER INSERT OR UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION responders_history();

CREATE FUNCTION comments_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  RETURN NEW;
END
$$;
CREATE TRIGGER comments_defaults BEFORE INSERT ON comments FOR EACH ROW EXECUTE FUNCTION comments_defaults();

CREATE FUNCTION comments_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  PERFORM incident_history_add(NEW.incident_id, 'responder.commented', left(NEW.comment, 80), NEW.created_by,
    p_hypothesis => NEW.hypothesis_id, p_responder => NEW.responder_id, p_comment => NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER comments_history AFTER INSERT ON comments FOR EACH ROW EXECUTE FUNCTION comments_history();
