-- 0005: incidents: rules, incidents, the hypothesis tree, evidence, responders, comments and
-- the changelog (incident_histories).

-- incident_rules: rules that open incidents automatically from health/config events
-- (settings "Rules"): name and spec (filters, template, auto-responders, auto-close).
CREATE TABLE incident_rules (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  priority   integer NOT NULL DEFAULT 0,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  source     text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX incident_rules_created_by_idx ON incident_rules (created_by);
CREATE INDEX incident_rules_name_idx ON incident_rules (name);
CREATE INDEX incident_rules_created_at_idx ON incident_rules (created_at);
CREATE INDEX incident_rules_deleted_at_idx ON incident_rules (deleted_at);
CREATE TRIGGER incident_rules_updated_at BEFORE UPDATE ON incident_rules FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Human-readable incident numbers: INC0000001, INC0000002, ...
CREATE SEQUENCE incident_number_seq;

-- incidents: an incident with its type, status, severity and roles (commander, communicator).
-- acknowledged/resolved/closed record when the status first reached those states.
CREATE TABLE incidents (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id      text NOT NULL UNIQUE DEFAULT ('INC' || lpad(nextval('incident_number_seq')::text, 7, '0')),
  title            text NOT NULL CHECK (length(btrim(title)) > 0),
  description      text,
  type             text NOT NULL DEFAULT 'availability' CHECK (type IN ('cost', 'availability', 'performance', 'security',
                     'integration', 'compliance', 'technicalDebt', 'reliability')),
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('new', 'open', 'investigating', 'mitigated', 'resolved', 'closed')),
  severity         text NOT NULL DEFAULT 'low' CHECK (severity IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  commander_id     uuid REFERENCES people(id) ON DELETE SET NULL,
  communicator_id  uuid REFERENCES people(id) ON DELETE SET NULL,
  incident_rule_id uuid REFERENCES incident_rules(id) ON DELETE SET NULL,
  acknowledged     timestamptz,
  resolved         timestamptz,
  closed           timestamptz,
  created_by       uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incidents_commander_id_idx ON incidents (commander_id);
CREATE INDEX incidents_communicator_id_idx ON incidents (communicator_id);
CREATE INDEX incidents_incident_rule_id_idx ON incidents (incident_rule_id);
CREATE INDEX incidents_created_by_idx ON incidents (created_by);
CREATE INDEX incidents_type_idx ON incidents (type);
CREATE INDEX incidents_status_idx ON incidents (status, created_at DESC);
CREATE INDEX incidents_severity_idx ON incidents (severity);
CREATE INDEX incidents_title_idx ON incidents (title);
CREATE INDEX incidents_created_at_idx ON incidents (created_at DESC);
CREATE INDEX incidents_updated_at_idx ON incidents (updated_at);
CREATE TRIGGER incidents_updated_at BEFORE UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- hypotheses: the action plan of an incident, a tree: one root, then factors and solutions.
CREATE TABLE hypotheses (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  parent_id   uuid REFERENCES hypotheses(id) ON DELETE CASCADE,
  title       text,
  type        text NOT NULL DEFAULT 'factor' CHECK (type IN ('root', 'factor', 'solution')),
  status      text NOT NULL DEFAULT 'possible' CHECK (status IN ('proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven')),
  created_by  uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hypotheses_incident_id_idx ON hypotheses (incident_id);
CREATE INDEX hypotheses_parent_id_idx ON hypotheses (parent_id);
CREATE INDEX hypotheses_created_by_idx ON hypotheses (created_by);
CREATE INDEX hypotheses_status_idx ON hypotheses (status);
CREATE INDEX hypotheses_title_idx ON hypotheses (title);
CREATE TRIGGER hypotheses_updated_at BEFORE UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- evidences: what supports a hypothesis: a log excerpt, a component, a config, a check, a
-- config change or insight, or a comment. definition_of_done marks the evidence as part of the
-- incident's definition of done (script is an optional CEL expression; done is its state).
CREATE TABLE evidences (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hypothesis_id       uuid NOT NULL REFERENCES hypotheses(id) ON DELETE CASCADE,
  type                text NOT NULL CHECK (type IN ('log', 'topology', 'config', 'check', 'config_change', 'config_analysis', 'comment')),
  description         text,
  evidence            jsonb,
  properties          jsonb,
  component_id        uuid REFERENCES components(id) ON DELETE SET NULL,
  config_id           uuid REFERENCES config_items(id) ON DELETE SET NULL,
  check_id            uuid REFERENCES checks(id) ON DELETE SET NULL,
  config_change_id    uuid REFERENCES config_changes(id) ON DELETE SET NULL,
  config_analysis_id  uuid REFERENCES config_analysis(id) ON DELETE SET NULL,
  definition_of_done  boolean NOT NULL DEFAULT false,
  done                boolean NOT NULL DEFAULT false,
  script              text,
  created_by          uuid REFERENCES people(id) ON DELETE SET NULL,
  external_created_by text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evidences_hypothesis_id_idx ON evidences (hypothesis_id);
CREATE INDEX evidences_component_id_idx ON evidences (component_id);
CREATE INDEX evidences_config_id_idx ON evidences (config_id);
CREATE INDEX evidences_check_id_idx ON evidences (check_id);
CREATE INDEX evidences_config_change_id_idx ON evidences (config_change_id);
CREATE INDEX evidences_config_analysis_id_idx ON evidences (config_analysis_id);
CREATE INDEX evidences_created_by_idx ON evidences (created_by);
CREATE INDEX evidences_type_idx ON evidences (type);
CREATE INDEX evidences_definition_of_done_idx ON evidences (definition_of_done) WHERE definition_of_done;
CREATE TRIGGER evidences_updated_at BEFORE UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- responders: people or teams responding to an incident. A team responder carries a responder
-- type (jira, email, ms_planner, ...) in properties.responderType with that type's fields, and
-- external_id once the ticket exists. Timeline: created, acknowledged, signed off, closed.
CREATE TABLE responders (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id      uuid NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  type             text NOT NULL CHECK (type IN ('person', 'system', 'team', 'email', 'jira', 'service_now', 'ca', 'aws_support',
                     'aws_ams_services_request', 'redhat', 'oracle', 'ms_planner', 'vmware')),
  person_id        uuid REFERENCES people(id) ON DELETE CASCADE,
  team_id          uuid REFERENCES teams(id) ON DELETE CASCADE,
  properties       jsonb NOT NULL DEFAULT '{}'::jsonb,
  external_id      text,
  acknowledge_time timestamptz,
  signoff_time     timestamptz,
  close_time       timestamptz,
  created_by       uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted_at       timestamptz,
  CHECK (person_id IS NOT NULL OR team_id IS NOT NULL)
);
CREATE INDEX responders_incident_id_idx ON responders (incident_id);
CREATE INDEX responders_person_id_idx ON responders (person_id);
CREATE INDEX responders_team_id_idx ON responders (team_id);
CREATE INDEX responders_created_by_idx ON responders (created_by);
CREATE INDEX responders_deleted_at_idx ON responders (deleted_at);
CREATE INDEX responders_external_id_idx ON responders (external_id);
CREATE TRIGGER responders_updated_at BEFORE UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- comments: discussion on an incident, attached to a hypothesis; responder_id/external_id for
-- comments synchronised from an external ticket.
CREATE TABLE comments (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id         uuid NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  hypothesis_id       uuid REFERENCES hypotheses(id) ON DELETE CASCADE,
  responder_id        uuid REFERENCES responders(id) ON DELETE SET NULL,
  comment             text NOT NULL CHECK (length(btrim(comment)) > 0),
  external_id         text,
  external_created_by text,
  created_by          uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_incident_id_idx ON comments (incident_id, created_at);
CREATE INDEX comments_hypothesis_id_idx ON comments (hypothesis_id);
CREATE INDEX comments_responder_id_idx ON comments (responder_id);
CREATE INDEX comments_created_by_idx ON comments (created_by);
CREATE INDEX comments_created_at_idx ON comments (created_at);
CREATE TRIGGER comments_updated_at BEFORE UPDATE ON comments FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- incident_histories: the incident changelog, written in the same transaction as the change.
-- type is the event name; the *_id columns point at what the entry is about.
CREATE TABLE incident_histories (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id   uuid NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  type          text NOT NULL CHECK (type IN ('incident.created', 'incident.status_updated', 'incident_status.updated',
                  'incident.severity_updated', 'incident.type_updated', 'responder.created', 'responder.commented',
                  'responder.deleted', 'evidence.created', 'evidence.done_definition_added', 'evidence.done_definition_removed',
                  'hypothesis.created', 'hypothesis.status_updated')),
  description   text,
  responder_id  uuid REFERENCES responders(id) ON DELETE SET NULL,
  evidence_id   uuid REFERENCES evidences(id) ON DELETE SET NULL,
  hypothesis_id uuid REFERENCES hypotheses(id) ON DELETE SET NULL,
  comment_id    uuid REFERENCES comments(id) ON DELETE SET NULL,
  created_by    uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_histories_incident_id_idx ON incident_histories (incident_id, created_at DESC);
CREATE INDEX incident_histories_responder_id_idx ON incident_histories (responder_id);
CREATE INDEX incident_histories_evidence_id_idx ON incident_histories (evidence_id);
CREATE INDEX incident_histories_hypothesis_id_idx ON incident_histories (hypothesis_id);
CREATE INDEX incident_histories_comment_id_idx ON incident_histories (comment_id);
CREATE INDEX incident_histories_created_by_idx ON incident_histories (created_by);
CREATE INDEX incident_histories_type_idx ON incident_histories (type);
