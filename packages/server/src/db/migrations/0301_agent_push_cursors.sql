-- 0301: agent mode's cursors for the engines' other tables (agents/mode.ts). Per upstream and
-- table: the rows up to (at, key) in the order of the table's change time (updated_at, created_at
-- or time_end) and key are stored upstream. As with check_statuses (0300), the rows are the
-- outbox: nothing is copied, and a restart resumes from here.
CREATE TABLE agent_push_cursors (
  upstream   text NOT NULL,
  tbl        text NOT NULL,
  at         timestamptz NOT NULL DEFAULT '-infinity',
  key        text NOT NULL DEFAULT '',
  pushed     bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (upstream, tbl)
);
CREATE TRIGGER agent_push_cursors_updated_at BEFORE UPDATE ON agent_push_cursors FOR EACH ROW EXECUTE FUNCTION set_updated_at();
