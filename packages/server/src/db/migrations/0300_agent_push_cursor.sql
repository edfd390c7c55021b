-- 0300: agent mode (agents/mode.ts). Where an agent's pushes to its upstream have got to: the
-- check_statuses of this database up to (created_at, check_id, time) are stored upstream. The
-- rows themselves are the outbox: nothing is copied, nothing is lost while the upstream is down,
-- and a restart resumes from here. One row per upstream.
CREATE TABLE agent_push_cursor (
  upstream   text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT '-infinity',
  check_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  time       timestamptz NOT NULL DEFAULT '-infinity',
  pushed     bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER agent_push_cursor_updated_at BEFORE UPDATE ON agent_push_cursor FOR EACH ROW EXECUTE FUNCTION set_updated_at();
