-- 0008: settings (properties/feature flags, connections, logging backends), job history, the
-- event queue and the scheduler's claims.

-- properties: key/value settings; feature flags are rows named '<feature>.disable' = 'true'.
CREATE TABLE properties (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  description text,
  created_by  uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX properties_created_by_idx ON properties (created_by);
CREATE TRIGGER properties_updated_at BEFORE UPDATE ON properties FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- connections: credentials and endpoints for external systems (databases, clouds, chat
-- services, ...). Secret-like fields hold either a literal or a reference to a secret.
CREATE TABLE connections (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  namespace    text NOT NULL DEFAULT 'default',
  type         text NOT NULL CHECK (type IN (
                 'postgres', 'mysql', 'sql_server', 'http', 'prometheus', 'elasticsearch', 'mongo', 'ldap', 'redis',
                 'windows', 'google_cloud', 'gcs', 'sftp', 'aws', 's3', 'kubernetes', 'azure_devops', 'azure', 'github',
                 'gitlab', 'restic', 'smb', 'jmeter', 'dynatrace',
                 'discord', 'email', 'google_chat', 'ifttt', 'mattermost', 'matrix', 'ntfy', 'opsgenie', 'pushbullet',
                 'pushover', 'rocketchat', 'slack', 'teams', 'telegram', 'zulip_chat', 'generic_webhook',
                 'folder', 'git', 'jira', 'ms_planner', 'service_now')),
  url          text,
  username     text,
  password     text,
  certificate  text,
  insecure_tls boolean NOT NULL DEFAULT false,
  properties   jsonb DEFAULT '{}'::jsonb,
  source       text NOT NULL DEFAULT 'UI',
  created_by   uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX connections_name_key ON connections (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX connections_name_idx ON connections (name);
CREATE INDEX connections_type_idx ON connections (type);
CREATE INDEX connections_created_by_idx ON connections (created_by);
CREATE INDEX connections_created_at_idx ON connections (created_at);
CREATE INDEX connections_deleted_at_idx ON connections (deleted_at);
CREATE TRIGGER connections_updated_at BEFORE UPDATE ON connections FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- logging_backends: where component logs are searched (Log Backends): name, labels, spec.
CREATE TABLE logging_backends (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  source     text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX logging_backends_agent_id_idx ON logging_backends (agent_id);
CREATE INDEX logging_backends_created_by_idx ON logging_backends (created_by);
CREATE INDEX logging_backends_name_idx ON logging_backends (name);
CREATE INDEX logging_backends_created_at_idx ON logging_backends (created_at);
CREATE INDEX logging_backends_deleted_at_idx ON logging_backends (deleted_at);
CREATE TRIGGER logging_backends_updated_at BEFORE UPDATE ON logging_backends FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- job_history: one row per engine run (canary, scraper, topology, notification, cleanup ...):
-- RUNNING, then SUCCESS / WARNING / FAILED (STOPPED when the server died mid-run), with counts,
-- duration and details (errors, scrape_summary, summary). resource_id is text because some
-- jobs run on resources that are not uuid-keyed.
CREATE TABLE job_history (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  resource_type   text,
  resource_id     text,
  agent_id        uuid REFERENCES agents(id) ON DELETE SET NULL,
  hostname        text,
  status          text NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED')),
  success_count   integer NOT NULL DEFAULT 0,
  error_count     integer NOT NULL DEFAULT 0,
  duration_millis bigint,
  details         jsonb,
  time_start      timestamptz NOT NULL DEFAULT now(),
  time_end        timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_history_agent_id_idx ON job_history (agent_id);
CREATE INDEX job_history_resource_id_idx ON job_history (resource_id, created_at DESC);
CREATE INDEX job_history_resource_type_idx ON job_history (resource_type);
CREATE INDEX job_history_name_idx ON job_history (name);
CREATE INDEX job_history_status_idx ON job_history (status);
CREATE INDEX job_history_created_at_idx ON job_history (created_at DESC);
CREATE INDEX job_history_time_start_idx ON job_history (time_start);
CREATE INDEX job_history_duration_millis_idx ON job_history (duration_millis);

-- event_queue: events waiting for a consumer (check.failed, config.updated, incident.created,
-- notification.send, ...). Unique per (name, event_id); failed rows are the dead letters.
CREATE TABLE event_queue (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  event_id        text NOT NULL,
  properties      jsonb NOT NULL DEFAULT '{}'::jsonb,
  priority        integer NOT NULL DEFAULT 0,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  last_attempt    timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name, event_id)
);
CREATE INDEX event_queue_claim_idx ON event_queue (status, name, next_attempt_at, priority DESC);
CREATE INDEX event_queue_created_at_idx ON event_queue (created_at);

-- scheduler_claims: one row per (job key, slot) a replica claimed, so each scheduled run
-- happens once across replicas. Pruned after a day.
CREATE TABLE scheduler_claims (
  job_key    text NOT NULL,
  slot       timestamptz NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_key, slot)
);
CREATE INDEX scheduler_claims_slot_idx ON scheduler_claims (slot);
