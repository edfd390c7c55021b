-- 0007: notifications: rules, silences and the send history.

-- notifications: notification rules: which events (check.failed, config.updated, ...) notify
-- whom: a person, a team, or custom services (connections). filter is a CEL expression;
-- template the message; repeat_interval suppresses repeats of the same event.
CREATE TABLE notifications (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text,
  namespace       text NOT NULL DEFAULT 'default',
  title           text,
  events          text[] NOT NULL CHECK (cardinality(events) > 0),
  filter          text,
  template        text,
  properties      jsonb,
  repeat_interval text,
  person_id       uuid REFERENCES people(id) ON DELETE SET NULL,
  team_id         uuid REFERENCES teams(id) ON DELETE SET NULL,
  custom_services jsonb,
  source          text NOT NULL DEFAULT 'UI',
  error           text,
  error_at        timestamptz,
  created_by      uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE INDEX notifications_person_id_idx ON notifications (person_id);
CREATE INDEX notifications_team_id_idx ON notifications (team_id);
CREATE INDEX notifications_created_by_idx ON notifications (created_by);
CREATE INDEX notifications_events_idx ON notifications USING gin (events);
CREATE INDEX notifications_name_idx ON notifications (name);
CREATE INDEX notifications_created_at_idx ON notifications (created_at);
CREATE INDEX notifications_deleted_at_idx ON notifications (deleted_at);
CREATE TRIGGER notifications_updated_at BEFORE UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- notification_silences: silences that stop notifications about one resource (a config,
-- component, check or canary; recursive also covers its children) between "from" and until.
CREATE TABLE notification_silences (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  namespace    text NOT NULL DEFAULT 'default',
  description  text,
  "from"       timestamptz NOT NULL DEFAULT now(),
  until        timestamptz NOT NULL,
  recursive    boolean NOT NULL DEFAULT false,
  source       text NOT NULL DEFAULT 'UI',
  canary_id    uuid REFERENCES canaries(id) ON DELETE CASCADE,
  check_id     uuid REFERENCES checks(id) ON DELETE CASCADE,
  component_id uuid REFERENCES components(id) ON DELETE CASCADE,
  config_id    uuid REFERENCES config_items(id) ON DELETE CASCADE,
  error        text,
  created_by   uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  CHECK (num_nonnulls(canary_id, check_id, component_id, config_id) = 1),
  CHECK (until > "from")
);
CREATE INDEX notification_silences_canary_id_idx ON notification_silences (canary_id);
CREATE INDEX notification_silences_check_id_idx ON notification_silences (check_id);
CREATE INDEX notification_silences_component_id_idx ON notification_silences (component_id);
CREATE INDEX notification_silences_config_id_idx ON notification_silences (config_id);
CREATE INDEX notification_silences_created_by_idx ON notification_silences (created_by);
CREATE INDEX notification_silences_until_idx ON notification_silences (until);
CREATE INDEX notification_silences_created_at_idx ON notification_silences (created_at);
CREATE INDEX notification_silences_deleted_at_idx ON notification_silences (deleted_at);
CREATE TRIGGER notification_silences_updated_at BEFORE UPDATE ON notification_silences FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- notification_send_history: every notification the rules produced: sent, failed, pending,
-- cancelled, suppressed by the repeat interval (count grows) or silenced.
CREATE TABLE notification_send_history (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  notification_id uuid NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('sent', 'error', 'pending', 'cancelled', 'repeat-interval', 'silenced')),
  source_event    text NOT NULL,
  resource_type   text CHECK (resource_type IN ('config', 'component', 'check', 'canary', 'playbook_run')),
  resource_id     uuid,
  person_id       uuid REFERENCES people(id) ON DELETE SET NULL,
  team_id         uuid REFERENCES teams(id) ON DELETE SET NULL,
  silenced_by     uuid REFERENCES notification_silences(id) ON DELETE SET NULL,
  body            text,
  error           text,
  duration_millis integer,
  count           integer NOT NULL DEFAULT 1,
  first_observed  timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_send_history_notification_id_idx ON notification_send_history (notification_id, created_at DESC);
CREATE INDEX notification_send_history_person_id_idx ON notification_send_history (person_id);
CREATE INDEX notification_send_history_team_id_idx ON notification_send_history (team_id);
CREATE INDEX notification_send_history_silenced_by_idx ON notification_send_history (silenced_by);
CREATE INDEX notification_send_history_resource_idx ON notification_send_history (resource_id);
CREATE INDEX notification_send_history_resource_type_idx ON notification_send_history (resource_type);
CREATE INDEX notification_send_history_status_idx ON notification_send_history (status);
CREATE INDEX notification_send_history_created_at_idx ON notification_send_history (created_at DESC);
CREATE TRIGGER notification_send_history_updated_at BEFORE UPDATE ON notification_send_history FOR EACH ROW EXECUTE FUNCTION set_updated_at();
