-- Incidents: every trigger, trigger function, write function and view of the area (seed 001;
-- incidents/README.md). Applied after the versioned migrations whenever this file changes
-- (db/README.md): every statement can run again.
--
-- The database enforces the workflow and writes the changelog (incident_histories) and the
-- events, so they land in the transaction of the change whatever path made it (/api/db, server
-- code, a psql session). The actor is the transaction-local setting request.person_id that
-- /api/db sets for every write (request_person_id(), auth/sql/10-caller.sql); creators default
-- to it. Bulk loaders that write their own backdated changelog (the demo seed) turn the history
-- triggers, dispatch and definition-of-done events off for their transaction with
-- set_config('watchdeck.incident_history', 'off', true). A table's BEFORE triggers fire in name
-- order, then its AFTER triggers in name order.

-- ---------------------------------------------------------------------------------------------
-- Shared by the triggers below
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION incident_history_enabled() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('watchdeck.incident_history', true), '') <> 'off'
$$;

-- One changelog row; the actor is the caller, else the row's own creator.
CREATE OR REPLACE FUNCTION incident_history_add(p_incident uuid, p_type text, p_description text, p_by uuid,
  p_hypothesis uuid DEFAULT NULL, p_evidence uuid DEFAULT NULL, p_responder uuid DEFAULT NULL, p_comment uuid DEFAULT NULL)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO incident_histories (incident_id, type, description, created_by, hypothesis_id, evidence_id, responder_id, comment_id)
  VALUES (p_incident, p_type, p_description, coalesce(request_person_id(), p_by), p_hypothesis, p_evidence, p_responder, p_comment)
$$;

-- The statuses an incident may move to from `from_status`: the status table of seed 001
-- section 4, plus the moves of the detail header's toggle (section 2: it closes an open incident
-- and reopens any other status, investigating -> open included; core acceptedStatusMoves). The
-- web's dropdown offers the table only.
CREATE OR REPLACE FUNCTION incident_status_moves(from_status text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE from_status
    WHEN 'new'           THEN ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'open'          THEN ARRAY['open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'investigating' THEN ARRAY['investigating', 'mitigated', 'resolved', 'closed', 'open']
    WHEN 'mitigated'     THEN ARRAY['resolved', 'closed', 'open']
    WHEN 'resolved'      THEN ARRAY['closed', 'open']
    WHEN 'closed'        THEN ARRAY['open']
    ELSE ARRAY[]::text[]
  END
$$;

-- ---------------------------------------------------------------------------------------------
-- Inserting or updating an incident
-- ---------------------------------------------------------------------------------------------

-- Vocabulary and workflow checks, creator default and the acknowledged/resolved/closed stamps.
-- Errors are check_violation (23514) so /api/db answers 400 with the message as written.
CREATE OR REPLACE FUNCTION incidents_enforce() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS incidents_enforce ON incidents;
CREATE TRIGGER incidents_enforce BEFORE INSERT OR UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_enforce();

CREATE OR REPLACE FUNCTION incidents_number() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint := nullif(current_setting('watchdeck.incident_number', true), '')::bigint;
  given bigint;
BEGIN
  IF n IS NULL THEN
    SELECT last INTO n FROM incident_counter WHERE id FOR UPDATE;
  END IF;
  IF NEW.incident_id IS NULL THEN
    n := n + 1;
    NEW.incident_id := 'INC' || lpad(n::text, 7, '0');
  ELSIF NEW.incident_id ~ '^INC\d{1,18}$' THEN
    -- a loader that brings its own numbers: later ones follow the highest
    given := substr(NEW.incident_id, 4)::bigint;
    n := greatest(n, given);
  END IF;
  PERFORM set_config('watchdeck.incident_number', n::text, true);
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS incidents_number ON incidents;
CREATE TRIGGER incidents_number BEFORE INSERT ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_number();

-- A reopened incident is no longer resolved or closed: its resolved/closed stamps go
-- (incidents_enforce sets them when the status reaches those states; a later resolution stamps
-- them anew). Runs after incidents_enforce (BEFORE triggers fire in name order).
CREATE OR REPLACE FUNCTION incidents_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS incidents_reopen ON incidents;
CREATE TRIGGER incidents_reopen BEFORE UPDATE OF status ON incidents FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION incidents_reopen();

CREATE OR REPLACE FUNCTION incidents_history() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS incidents_history ON incidents;
CREATE TRIGGER incidents_history AFTER INSERT OR UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_history();

CREATE OR REPLACE FUNCTION incidents_number_save() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint := nullif(current_setting('watchdeck.incident_number', true), '')::bigint;
BEGIN
  IF n IS NOT NULL THEN
    UPDATE incident_counter SET last = n WHERE id AND last < n;
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS incidents_number_save ON incidents;
CREATE TRIGGER incidents_number_save AFTER INSERT ON incidents FOR EACH STATEMENT EXECUTE FUNCTION incidents_number_save();

-- Timeline (seed 001 section 4: Created, Acknowledged, Resolved (signoff), Closed): in the status
-- change's own transaction, resolving signs every active responder off, closing also closes them,
-- reopening clears both.
CREATE OR REPLACE FUNCTION incidents_responder_timeline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('resolved', 'closed') THEN
    UPDATE responders SET
      signoff_time = coalesce(signoff_time, now()),
      close_time = CASE WHEN NEW.status = 'closed' THEN coalesce(close_time, now()) ELSE close_time END
    WHERE incident_id = NEW.id AND deleted_at IS NULL
      AND (signoff_time IS NULL OR (NEW.status = 'closed' AND close_time IS NULL));
  ELSIF OLD.status IN ('resolved', 'closed') THEN
    -- reopened: the responders are active again (like the incident's own stamps, 0130)
    UPDATE responders SET signoff_time = NULL, close_time = NULL
    WHERE incident_id = NEW.id AND deleted_at IS NULL AND (signoff_time IS NOT NULL OR close_time IS NOT NULL);
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS incidents_responder_timeline ON incidents;
CREATE TRIGGER incidents_responder_timeline AFTER UPDATE OF status ON incidents FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION incidents_responder_timeline();

-- ---------------------------------------------------------------------------------------------
-- Hypotheses
-- ---------------------------------------------------------------------------------------------

-- Hypotheses: creator default, and an explicit null status still starts as 'possible'.
CREATE OR REPLACE FUNCTION hypotheses_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  NEW.status := coalesce(NEW.status, 'possible');
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS hypotheses_defaults ON hypotheses;
CREATE TRIGGER hypotheses_defaults BEFORE INSERT ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_defaults();

CREATE OR REPLACE FUNCTION hypotheses_history() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS hypotheses_history ON hypotheses;
CREATE TRIGGER hypotheses_history AFTER INSERT OR UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_history();

-- ---------------------------------------------------------------------------------------------
-- Evidences
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION evidences_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS evidences_defaults ON evidences;
CREATE TRIGGER evidences_defaults BEFORE INSERT ON evidences FOR EACH ROW EXECUTE FUNCTION evidences_defaults();

-- Evidence: created, and added to / removed from the definition of done (a manual definition
-- of done is created with definition_of_done already true: both rows are written).
CREATE OR REPLACE FUNCTION evidences_history() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS evidences_history ON evidences;
CREATE TRIGGER evidences_history AFTER INSERT OR UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION evidences_history();

-- A definition of done is judged as soon as it is written, not up to a minute later. An
-- evidence that joins the definition of done (or whose script or resource changes) publishes
-- incident.evidence.dod_changed in the write's transaction; the incidents area evaluates that evidence
-- (incidents/index.ts, dod.ts). The scheduled job still evaluates everything every minute.
-- Comments are marked done by hand. Bulk loaders that turn the changelog off (the demo seed)
-- write history, not live actions: the scheduled job judges their rows.
CREATE OR REPLACE FUNCTION evidences_dod_evaluate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  -- one event per evidence and transaction: a pending one already covers this write
  PERFORM publish_event('incident.evidence.dod_changed', NEW.id::text || '/' || txid_current()::text,
    jsonb_build_object('evidence_id', NEW.id, 'type', NEW.type));
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS evidences_dod_evaluate ON evidences;
CREATE TRIGGER evidences_dod_evaluate
  AFTER INSERT OR UPDATE OF definition_of_done, script, check_id, component_id, config_id, config_change_id, config_analysis_id
  ON evidences FOR EACH ROW
  WHEN (NEW.definition_of_done AND NEW.type <> 'comment')
  EXECUTE FUNCTION evidences_dod_evaluate();

-- ---------------------------------------------------------------------------------------------
-- Responders
-- ---------------------------------------------------------------------------------------------

-- The fields of each responder type (core RESPONDER_FIELDS; keep both in step). NULL: unknown type.
CREATE OR REPLACE FUNCTION responder_type_fields(p_type text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_type
    WHEN 'email' THEN ARRAY['to', 'subject', 'body']
    WHEN 'jira' THEN ARRAY['project', 'issueType', 'priority', 'summary', 'description']
    WHEN 'service_now' THEN ARRAY['category', 'description', 'body']
    WHEN 'ca' THEN ARRAY['category', 'description', 'body']
    WHEN 'aws_support' THEN ARRAY['category', 'description', 'body']
    WHEN 'aws_ams_services_request' THEN ARRAY['category', 'description', 'body']
    WHEN 'redhat' THEN ARRAY['product', 'category', 'description', 'body']
    WHEN 'oracle' THEN ARRAY['product', 'category', 'description', 'body']
    WHEN 'vmware' THEN ARRAY['product', 'category', 'description', 'body']
    WHEN 'ms_planner' THEN ARRAY['plan_id', 'bucket_id', 'priority', 'title', 'description']
    WHEN 'person' THEN ARRAY['person']
  END
$$;

-- The SQL twin of core's renderTemplate (template.ts): `{{ .a.b }}` becomes the value at that path
-- of ctx (missing or null: empty; strings as they are; numbers, booleans and objects as JSON);
-- anything else between braces stays as written. Keep both in step (tests compare them).
CREATE OR REPLACE FUNCTION render_template(tpl text, ctx jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  rest text := tpl;
  out text := '';
  m text;
  path text[];
  pos integer;
  v jsonb;
BEGIN
  IF tpl IS NULL THEN RETURN NULL; END IF;
  LOOP
    m := substring(rest FROM '\{\{-?\s*\.(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?\s*-?\}\}');
    EXIT WHEN m IS NULL;
    pos := strpos(rest, m);
    path := regexp_match(m, '^\{\{-?\s*\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?\s*-?\}\}$');
    v := CASE WHEN path[1] IS NULL THEN ctx ELSE ctx #> string_to_array(path[1], '.') END;
    out := out || left(rest, pos - 1) || CASE
      WHEN v IS NULL OR jsonb_typeof(v) = 'null' THEN ''
      WHEN jsonb_typeof(v) = 'string' THEN v #>> '{}'
      ELSE v::text
    END;
    rest := substr(rest, pos + length(m));
  END LOOP;
  RETURN out || rest;
END
$$;

-- A form value counts as given unless it is missing, null or blank text.
CREATE OR REPLACE FUNCTION responder_value_blank(v jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT v IS NULL OR jsonb_typeof(v) = 'null' OR (jsonb_typeof(v) = 'string' AND btrim(v #>> '{}') = '')
$$;

CREATE OR REPLACE FUNCTION responders_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS responders_defaults ON responders;
CREATE TRIGGER responders_defaults BEFORE INSERT ON responders FOR EACH ROW EXECUTE FUNCTION responders_defaults();

CREATE OR REPLACE FUNCTION responders_prepare() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  props jsonb := coalesce(NEW.properties, '{}'::jsonb);
  rtype text;
  team_row teams%ROWTYPE;
  clients jsonb;
  client jsonb;
  ctx jsonb;
  k text;
  val jsonb;
  missing text[] := ARRAY[]::text[];
  f text;
BEGIN
  IF jsonb_typeof(props) <> 'object' THEN
    RAISE EXCEPTION 'Please provide valid value' USING ERRCODE = 'check_violation', DETAIL = 'properties must be a JSON object';
  END IF;
  IF NEW.person_id IS NOT NULL AND NEW.team_id IS NOT NULL THEN
    RAISE EXCEPTION 'A responder is either a person or a team' USING ERRCODE = 'check_violation',
      DETAIL = 'Send person_id or team_id, not both';
  END IF;

  -- a person: added directly (seed 001 section 4), nothing to dispatch
  IF NEW.person_id IS NOT NULL THEN
    NEW.type := 'person';
    NEW.properties := props || jsonb_build_object('responderType', 'person', 'person', NEW.person_id);
    NEW.dispatch_status := NULL;
    RETURN NEW;
  END IF;
  IF NEW.team_id IS NULL THEN
    RAISE EXCEPTION 'Please provide valid value' USING ERRCODE = 'check_violation',
      DETAIL = 'person_id or team_id: choose a person or a team';
  END IF;

  -- a team: its responder type comes from properties.responderType, else the type column
  rtype := coalesce(nullif(btrim(props ->> 'responderType'), ''), CASE WHEN NEW.type IN ('team', 'system', 'person') THEN NULL ELSE NEW.type END);
  IF rtype IS NULL OR rtype = 'person' OR responder_type_fields(rtype) IS NULL THEN
    RAISE EXCEPTION 'Please provide valid value' USING ERRCODE = 'check_violation',
      DETAIL = format('responderType: "%s" is not a team responder type', coalesce(rtype, '')),
      HINT = 'Team responder types: email, jira, service_now, ca, aws_support, aws_ams_services_request, redhat, oracle, ms_planner, vmware';
  END IF;
  IF NEW.type NOT IN ('team', 'system', 'person') AND NEW.type <> rtype THEN
    RAISE EXCEPTION 'Please provide valid value' USING ERRCODE = 'check_violation',
      DETAIL = format('type "%s" and properties.responderType "%s" differ', NEW.type, rtype);
  END IF;
  NEW.type := rtype;

  SELECT * INTO team_row FROM teams WHERE id = NEW.team_id AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Team not found' USING ERRCODE = 'foreign_key_violation', DETAIL = format('team_id %s', NEW.team_id);
  END IF;
  clients := team_row.spec -> 'responder_clients';
  IF clients IS NULL OR jsonb_typeof(clients) <> 'object' OR clients = '{}'::jsonb THEN
    RAISE EXCEPTION 'There were no responders configured for this team' USING ERRCODE = 'check_violation',
      DETAIL = format('Team "%s" has no spec.responder_clients', team_row.name);
  END IF;
  client := clients -> rtype;
  IF client IS NULL OR jsonb_typeof(client) <> 'object' THEN
    RAISE EXCEPTION 'Responder type "%" is not configured for team "%"', rtype, team_row.name USING ERRCODE = 'check_violation',
      DETAIL = 'The team has: ' || (SELECT string_agg(key, ', ' ORDER BY key) FROM jsonb_object_keys(clients) AS key);
  END IF;

  -- fixed values win over the form
  IF jsonb_typeof(client -> 'values') = 'object' THEN
    props := props || (client -> 'values');
  END IF;
  -- empty fields from the defaults: templates over the form values, the incident and the team
  IF jsonb_typeof(client -> 'defaults') = 'object' THEN
    ctx := props || jsonb_build_object(
      'incident', (SELECT to_jsonb(i) FROM incidents i WHERE i.id = NEW.incident_id),
      'team', to_jsonb(team_row));
    FOR k, val IN SELECT key, value FROM jsonb_each(client -> 'defaults') LOOP
      IF responder_value_blank(props -> k) THEN
        props := props || jsonb_build_object(k,
          CASE WHEN jsonb_typeof(val) = 'string' THEN to_jsonb(render_template(val #>> '{}', ctx)) ELSE val END);
      END IF;
    END LOOP;
  END IF;
  -- every field of the type is required
  FOREACH f IN ARRAY responder_type_fields(rtype) LOOP
    IF responder_value_blank(props -> f) THEN missing := missing || f; END IF;
  END LOOP;
  IF cardinality(missing) > 0 THEN
    RAISE EXCEPTION 'Please provide valid value' USING ERRCODE = 'check_violation',
      DETAIL = format('%s: %s %s required', rtype, array_to_string(missing, ', '), CASE WHEN cardinality(missing) = 1 THEN 'is' ELSE 'are' END),
      HINT = format('A field comes from the form, or from team "%s": spec.responder_clients.%s.values or .defaults', team_row.name, rtype);
  END IF;
  NEW.properties := props || jsonb_build_object('responderType', rtype);

  -- dispatch, unless the ticket exists already or this is a bulk load of history
  NEW.dispatch_error := NULL;
  NEW.dispatched_at := NULL;
  NEW.dispatch_status := CASE WHEN NEW.external_id IS NULL AND incident_history_enabled() THEN 'pending' END;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS responders_prepare ON responders;
CREATE TRIGGER responders_prepare BEFORE INSERT ON responders FOR EACH ROW EXECUTE FUNCTION responders_prepare();

-- A new team responder is dispatched by the server (incidents/responders/dispatch.ts).
CREATE OR REPLACE FUNCTION responders_dispatch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM publish_event('incident.responder.dispatch', NEW.id::text,
    jsonb_build_object('responder_id', NEW.id, 'incident_id', NEW.incident_id, 'team_id', NEW.team_id, 'type', NEW.type));
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS responders_dispatch ON responders;
CREATE TRIGGER responders_dispatch AFTER INSERT ON responders FOR EACH ROW
  WHEN (NEW.dispatch_status = 'pending') EXECUTE FUNCTION responders_dispatch();

-- What a responder is cannot change; the dispatch outcome is written by the server only (it sets
-- watchdeck.responder_dispatch = 'on' in its transaction). Clients may remove (deleted_at),
-- acknowledge and sign off.
CREATE OR REPLACE FUNCTION responders_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  server boolean := coalesce(current_setting('watchdeck.responder_dispatch', true), '') = 'on';
  changed text;
BEGIN
  changed := CASE
    WHEN NEW.incident_id IS DISTINCT FROM OLD.incident_id THEN 'incident_id'
    WHEN NEW.created_by IS DISTINCT FROM OLD.created_by THEN 'created_by'
    WHEN NEW.created_at IS DISTINCT FROM OLD.created_at THEN 'created_at'
    WHEN NEW.team_id IS DISTINCT FROM OLD.team_id THEN 'team_id'
    WHEN NEW.person_id IS DISTINCT FROM OLD.person_id THEN 'person_id'
    WHEN NEW.type IS DISTINCT FROM OLD.type THEN 'type'
    WHEN NEW.properties IS DISTINCT FROM OLD.properties THEN 'properties'
  END;
  IF changed IS NULL AND NOT server THEN
    changed := CASE
      WHEN NEW.external_id IS DISTINCT FROM OLD.external_id THEN 'external_id'
      WHEN NEW.external_url IS DISTINCT FROM OLD.external_url THEN 'external_url'
      WHEN NEW.dispatch_status IS DISTINCT FROM OLD.dispatch_status THEN 'dispatch_status'
      WHEN NEW.dispatch_error IS DISTINCT FROM OLD.dispatch_error THEN 'dispatch_error'
      WHEN NEW.dispatched_at IS DISTINCT FROM OLD.dispatched_at THEN 'dispatched_at'
    END;
  END IF;
  IF changed IS NOT NULL THEN
    RAISE EXCEPTION 'A responder''s % cannot be changed', changed USING ERRCODE = 'check_violation',
      HINT = 'Remove the responder (deleted_at) and add another; acknowledge_time, signoff_time and close_time may be set';
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS responders_guard ON responders;
CREATE TRIGGER responders_guard BEFORE UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION responders_guard();

-- Responders are removed by setting deleted_at (seed 001 section 7); that is 'responder.deleted'.
CREATE OR REPLACE FUNCTION responders_history() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS responders_history ON responders;
CREATE TRIGGER responders_history AFTER INSERT OR UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION responders_history();

-- ---------------------------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION comments_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, request_person_id());
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS comments_defaults ON comments;
CREATE TRIGGER comments_defaults BEFORE INSERT ON comments FOR EACH ROW EXECUTE FUNCTION comments_defaults();

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
DROP TRIGGER IF EXISTS comments_history ON comments;
CREATE TRIGGER comments_history AFTER INSERT ON comments FOR EACH ROW EXECUTE FUNCTION comments_history();

CREATE OR REPLACE FUNCTION comments_mentions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM publish_event('incident.comment.mentions', NEW.id::text,
    jsonb_build_object('comment_id', NEW.id, 'incident_id', NEW.incident_id));
  RETURN NULL;
END
$$;
-- The pattern only pre-filters; core's parseMentions decides what is a mention.
DROP TRIGGER IF EXISTS comments_mentions ON comments;
CREATE TRIGGER comments_mentions AFTER INSERT ON comments FOR EACH ROW
  WHEN (NEW.comment ~ '@\[[^]]+\]\([0-9a-fA-F-]{36}\)' AND incident_history_enabled())
  EXECUTE FUNCTION comments_mentions();

-- Comments: the author or an admin edits and deletes; others get insufficient_privilege (403).
CREATE OR REPLACE FUNCTION comments_author_only() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS comments_author_only ON comments;
CREATE TRIGGER comments_author_only BEFORE UPDATE OR DELETE ON comments FOR EACH ROW
  EXECUTE FUNCTION comments_author_only();

-- ---------------------------------------------------------------------------------------------
-- Incident rules
-- ---------------------------------------------------------------------------------------------

DROP TRIGGER IF EXISTS incident_rules_source_guard ON incident_rules;
CREATE TRIGGER incident_rules_source_guard BEFORE UPDATE OR DELETE ON incident_rules
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_source_write('Incident rule');

-- ---------------------------------------------------------------------------------------------
-- Every table of the area
-- ---------------------------------------------------------------------------------------------

-- created_by is the caller's, whatever the client sent (auth/sql/10-caller.sql). Named to fire
-- after the other BEFORE triggers (they fire in name order): responders_guard still sees the
-- creator the client sent, and answers 400 to a changed one.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['incidents', 'incident_rules', 'hypotheses', 'evidences', 'comments', 'responders'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS zz_created_by_caller ON %I', t);
    EXECUTE format('CREATE TRIGGER zz_created_by_caller BEFORE INSERT OR UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION created_by_caller()', t);
  END LOOP;
END
$$;


-- ---------------------------------------------------------------------------------------------
-- The incident screens' multi-step writes, one transaction each (/api/db/rpc/<name>)
-- ---------------------------------------------------------------------------------------------

-- Create New Incident (seed 001 sections 2 and 4): the incident and its root hypothesis, which
-- starts 'possible' and is titled from the hypothesis text, else the description, else the title.
CREATE OR REPLACE FUNCTION create_incident(title text, description text DEFAULT NULL, type text DEFAULT 'availability',
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
CREATE OR REPLACE FUNCTION update_incident_status(id uuid, status text, definition_of_done uuid[] DEFAULT '{}')
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

-- ---------------------------------------------------------------------------------------------
-- Views
-- ---------------------------------------------------------------------------------------------

-- incident_summary: the incident list row: incident with commander, communicator, responders
-- (people and teams) and counts. Each responder's name comes from its person or team by primary
-- key: joining people and teams per row hashed the whole people table for every incident listed.
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

-- incidents_by_component: incidents with evidence on a component.
CREATE OR REPLACE VIEW incidents_by_component AS
SELECT DISTINCT e.component_id, i.id, i.incident_id, i.title, i.type, i.status, i.severity, i.created_at, i.updated_at
FROM incidents i
JOIN hypotheses h ON h.incident_id = i.id
JOIN evidences e ON e.hypothesis_id = h.id
WHERE e.component_id IS NOT NULL;

-- incidents_by_config: incidents with evidence on a config item.
CREATE OR REPLACE VIEW incidents_by_config AS
SELECT DISTINCT e.config_id, i.id, i.incident_id, i.title, i.type, i.status, i.severity, i.created_at, i.updated_at
FROM incidents i
JOIN hypotheses h ON h.incident_id = i.id
JOIN evidences e ON e.hypothesis_id = h.id
WHERE e.config_id IS NOT NULL;
