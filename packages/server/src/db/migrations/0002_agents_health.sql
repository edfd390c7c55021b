-- 0002: agents, and the health area: canaries (check definitions), checks and their history.

-- agents: remote agents pushing data from other clusters. The nil UUID is the local agent (the
-- server itself); agent_id columns elsewhere default to it. person_id is the identity the
-- agent's access token authenticates as. properties is the agent's label map; spec holds the
-- form's kubernetes {enabled, interval} and pushTelemetry {enabled, topologyName}.
CREATE TABLE agents (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  description   text,
  hostname      text,
  version       text,
  person_id     uuid REFERENCES people(id) ON DELETE SET NULL,
  properties    jsonb NOT NULL DEFAULT '{}'::jsonb,
  spec          jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_seen     timestamptz,
  last_received timestamptz,
  cleanup       boolean NOT NULL DEFAULT false,
  created_by    uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX agents_name_key ON agents (name) WHERE deleted_at IS NULL;
CREATE INDEX agents_name_idx ON agents (name);
CREATE INDEX agents_person_id_idx ON agents (person_id);
CREATE INDEX agents_created_by_idx ON agents (created_by);
CREATE INDEX agents_last_seen_idx ON agents (last_seen);
CREATE INDEX agents_created_at_idx ON agents (created_at);
CREATE INDEX agents_deleted_at_idx ON agents (deleted_at);
CREATE INDEX agents_properties_idx ON agents USING gin (properties);
CREATE TRIGGER agents_updated_at BEFORE UPDATE ON agents FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The local agent always exists so agent_id columns can default to it.
INSERT INTO agents (id, name, description)
VALUES ('00000000-0000-0000-0000-000000000000', 'local', 'This Watchdeck server')
ON CONFLICT (id) DO NOTHING;

-- canaries: health-check definitions (settings "Health Check"): a spec holding one or more
-- checks of any type (http, tcp, dns, icmp, tls, exec, postgres, ...), run on a schedule.
CREATE TABLE canaries (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  icon       text,
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  schedule   text,
  source     text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX canaries_name_key ON canaries (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX canaries_agent_id_idx ON canaries (agent_id);
CREATE INDEX canaries_name_idx ON canaries (name);
CREATE INDEX canaries_namespace_idx ON canaries (namespace);
CREATE INDEX canaries_created_by_idx ON canaries (created_by);
CREATE INDEX canaries_created_at_idx ON canaries (created_at);
CREATE INDEX canaries_deleted_at_idx ON canaries (deleted_at);
CREATE INDEX canaries_labels_idx ON canaries USING gin (labels);
CREATE TRIGGER canaries_updated_at BEFORE UPDATE ON canaries FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- checks: one check of a canary, with its latest state. status is healthy/unhealthy (NULL
-- before the first run); last_transition_time is when status last flipped.
CREATE TABLE checks (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  canary_id            uuid NOT NULL REFERENCES canaries(id) ON DELETE CASCADE,
  agent_id             uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  name                 text NOT NULL,
  namespace            text NOT NULL DEFAULT 'default',
  description          text,
  type                 text NOT NULL,
  icon                 text,
  endpoint             text,
  owner                text,
  labels               jsonb DEFAULT '{}'::jsonb,
  spec                 jsonb NOT NULL DEFAULT '{}'::jsonb,
  severity             text NOT NULL DEFAULT 'info'
                       CHECK (severity IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  status               text CHECK (status IN ('healthy', 'unhealthy')),
  last_runtime         timestamptz,
  next_runtime         timestamptz,
  last_transition_time timestamptz,
  silenced_at          timestamptz,
  created_by           uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  deleted_at           timestamptz
);
CREATE INDEX checks_canary_id_idx ON checks (canary_id);
CREATE INDEX checks_agent_id_idx ON checks (agent_id);
CREATE INDEX checks_created_by_idx ON checks (created_by);
CREATE INDEX checks_name_idx ON checks (name);
CREATE INDEX checks_namespace_idx ON checks (namespace);
CREATE INDEX checks_type_idx ON checks (type);
CREATE INDEX checks_status_idx ON checks (status);
CREATE INDEX checks_severity_idx ON checks (severity);
CREATE INDEX checks_created_at_idx ON checks (created_at);
CREATE INDEX checks_last_runtime_idx ON checks (last_runtime);
CREATE INDEX checks_deleted_at_idx ON checks (deleted_at);
CREATE INDEX checks_labels_idx ON checks USING gin (labels);
CREATE TRIGGER checks_updated_at BEFORE UPDATE ON checks FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- check_statuses: the run history of a check: one row per run. status true = healthy
-- (the UI filters status=eq.1 / eq.0). duration in milliseconds.
CREATE TABLE check_statuses (
  check_id   uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  time       timestamptz NOT NULL,
  duration   integer NOT NULL DEFAULT 0,
  status     boolean NOT NULL,
  invalid    boolean NOT NULL DEFAULT false,
  message    text,
  error      text,
  detail     jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (check_id, time)
);
CREATE INDEX check_statuses_time_idx ON check_statuses (time);
CREATE INDEX check_statuses_check_id_status_idx ON check_statuses (check_id, status, time);
