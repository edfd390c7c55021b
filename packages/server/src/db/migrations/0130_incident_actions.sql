-- 0130: the incident screens' multi-step writes as single functions, so each runs in one
-- transaction (called through /api/db/rpc/<name>, which sets request.person_id for the triggers).

-- Create New Incident (seed 001 sections 2 and 4): the incident and its root hypothesis, which
-- starts 'possible' and is titled from the hypothesis text, else the description, else the title.
CREATE FUNCTION create_incident(title text, description text DEFAULT NULL, type text DEFAULT 'availability',
  severity text DEFAULT 'low', status text DEFAULT 'open', hypothesis text DEFAULT NULL)
RETURNS SETOF incidents LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  created incidents;
BEGIN
  INSERT INTO incidents (title, description, type, severity, status)
  VALUES (btrim(title), nullif(btrim(description), ''), type, severity, status)
  RETURNING * INTO created;
  INSERT INTO hypotheses (incident_id, type, status, title)
  VALUES (created.id, 'root', 'possible',
    coalesce(nullif(btrim(hypothesis), ''), nullif(btrim(description), ''), btrim(title)));
  RETURN NEXT created;
END
$$;

-- The status dropdown's contributing-factors dialog (seed 001 section 4): the chosen evidences
-- join the definition of done, then the status is saved; a refused move leaves both untouched.
-- Evidences of other incidents are ignored.
CREATE FUNCTION update_incident_status(id uuid, status text, definition_of_done uuid[] DEFAULT '{}')
RETURNS SETOF incidents LANGUAGE plpgsql AS $$
#variable_conflict use_variable
BEGIN
  UPDATE evidences e SET definition_of_done = true
  FROM hypotheses h
  WHERE h.id = e.hypothesis_id AND h.incident_id = update_incident_status.id
    AND e.id = ANY (definition_of_done) AND NOT e.definition_of_done;
  RETURN QUERY UPDATE incidents i SET status = update_incident_status.status
    WHERE i.id = update_incident_status.id RETURNING i.*;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Incident not found' USING ERRCODE = 'PT404';
  END IF;
END
$$;

-- The changelog line of a comment reads its mentions as @Name (core/mentions.ts markup is
-- `@[Name](<person id>)`), so the 80 characters kept are words, not ids.
CREATE OR REPLACE FUNCTION comments_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  PERFORM incident_history_add(NEW.incident_id, 'responder.commented',
    left(regexp_replace(NEW.comment, '@\[([^]]+)\]\([0-9a-fA-F-]{36}\)', '@\1', 'g'), 80), NEW.created_by,
    p_hypothesis => NEW.hypothesis_id, p_responder => NEW.responder_id, p_comment => NEW.id);
  RETURN NULL;
END
$$;

-- A reopened incident is no longer resolved or closed: its resolved/closed stamps go (0102 sets
-- them when the status reaches those states; a later resolution stamps them anew). Runs after
-- incidents_enforce (BEFORE triggers fire in name order).
CREATE FUNCTION incidents_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status NOT IN ('resolved', 'closed') THEN
    NEW.resolved := NULL;
    NEW.closed := NULL;
  ELSIF NEW.status = 'resolved' THEN
    NEW.closed := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER incidents_reopen BEFORE UPDATE OF status ON incidents FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION incidents_reopen();
