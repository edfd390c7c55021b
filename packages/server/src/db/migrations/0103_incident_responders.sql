-- 0103: incident responders (seed 001 sections 3, 5, 7; server incidents/README.md):
--   * a team responder is checked against the team's spec.responder_clients.<type>: fixed
--     `values` win over what the client sent, empty fields are filled from the `defaults`
--     templates, then every field of the type is required ('Please provide valid value', 400);
--   * a new team responder is dispatched through the event queue ('incident.responder.dispatch',
--     published by the insert's own trigger, so a responder and its dispatch are never split);
--     the outcome lands in dispatch_status / dispatch_error / external_id / external_url;
--   * the identity of a responder (incident, creator, team, person, type, properties) and the
--     dispatch outcome cannot be rewritten by clients;
--   * timeline: resolving an incident signs its responders off, closing it closes them, reopening
--     it clears both.
-- Bulk loaders that turn the changelog off (watchdeck.incident_history = 'off', the demo seed)
-- write history, not live actions: their responders are not dispatched.

ALTER TABLE responders
  ADD COLUMN dispatch_status text CHECK (dispatch_status IN ('pending', 'sent', 'logged', 'failed')),
  ADD COLUMN dispatch_error  text,
  ADD COLUMN dispatched_at   timestamptz,
  ADD COLUMN external_url    text;
CREATE INDEX responders_dispatch_status_idx ON responders (dispatch_status) WHERE dispatch_status IS NOT NULL;

-- The ticket systems of the responder types (core RESPONDER_CONNECTION_TYPES): jira, service_now
-- and ms_planner were allowed already; case_webhook serves the support-case systems.
ALTER TABLE connections DROP CONSTRAINT connections_type_check;
ALTER TABLE connections ADD CONSTRAINT connections_type_check CHECK (type IN (
  'postgres', 'mysql', 'sql_server', 'http', 'prometheus', 'elasticsearch', 'mongo', 'ldap', 'redis',
  'windows', 'google_cloud', 'gcs', 'sftp', 'aws', 's3', 'kubernetes', 'azure_devops', 'azure', 'github',
  'gitlab', 'restic', 'smb', 'jmeter', 'dynatrace',
  'discord', 'email', 'google_chat', 'ifttt', 'mattermost', 'matrix', 'ntfy', 'opsgenie', 'pushbullet',
  'pushover', 'rocketchat', 'slack', 'teams', 'telegram', 'zulip_chat', 'generic_webhook',
  'folder', 'git', 'jira', 'ms_planner', 'service_now', 'case_webhook'));

-- The fields of each responder type (core RESPONDER_FIELDS; keep both in step). NULL: unknown type.
CREATE FUNCTION responder_type_fields(p_type text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
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
CREATE FUNCTION render_template(tpl text, ctx jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
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
CREATE FUNCTION responder_value_blank(v jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT v IS NULL OR jsonb_typeof(v) = 'null' OR (jsonb_typeof(v) = 'string' AND btrim(v #>> '{}') = '')
$$;

CREATE FUNCTION responders_prepare() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER responders_prepare BEFORE INSERT ON responders FOR EACH ROW EXECUTE FUNCTION responders_prepare();

CREATE FUNCTION responders_dispatch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_queue (name, event_id, properties)
  VALUES ('incident.responder.dispatch', NEW.id::text,
    jsonb_build_object('responder_id', NEW.id, 'incident_id', NEW.incident_id, 'team_id', NEW.team_id, 'type', NEW.type))
  ON CONFLICT (name, event_id) DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER responders_dispatch AFTER INSERT ON responders FOR EACH ROW
  WHEN (NEW.dispatch_status = 'pending') EXECUTE FUNCTION responders_dispatch();

-- What a responder is cannot change; the dispatch outcome is written by the server only (it sets
-- watchdeck.responder_dispatch = 'on' in its transaction). Clients may remove (deleted_at),
-- acknowledge and sign off.
CREATE FUNCTION responders_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER responders_guard BEFORE UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION responders_guard();

-- Timeline (seed 001 section 4: Created, Acknowledged, Resolved (signoff), Closed): in the status
-- change's own transaction, resolving signs every active responder off, closing also closes them,
-- reopening clears both.
CREATE FUNCTION incidents_responder_timeline() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER incidents_responder_timeline AFTER UPDATE OF status ON incidents FOR EACH ROW
  WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION incidents_responder_timeline();
