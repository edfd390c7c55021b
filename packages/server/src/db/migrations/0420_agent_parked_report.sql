-- 0420: parked pushes an operator can see and act on (agents/README.md, "Parked pushes").
--
-- On the agent's own database: agent_push_parked (0351) learns the key of the row it holds (to
-- find the current local row on a retry, and to notice a later version stored normally), how
-- often it was tried, how it ended (stored by a retry or a later push; discarded by an operator),
-- the last operator request carried out (the upstream's requested_at, echoed back) and whether
-- the upstream has seen its current state (reported_at NULL: not yet).
ALTER TABLE agent_push_parked
  ADD COLUMN row_key text,
  ADD COLUMN attempts int NOT NULL DEFAULT 1,
  ADD COLUMN last_attempt_at timestamptz,
  ADD COLUMN resolution text CHECK (resolution IN ('stored', 'discarded')),
  ADD COLUMN resolved_at timestamptz,
  ADD COLUMN handled_request_at timestamptz,
  ADD COLUMN reported_at timestamptz;
UPDATE agent_push_parked SET row_key = CASE tbl
    WHEN 'check_statuses' THEN (row->>'check_id') || '/' || (row->>'time')
    WHEN 'config_relationships' THEN (row->>'config_id') || '/' || (row->>'related_id') || '/' || (row->>'selector_id')
    ELSE row->>'id' END;
UPDATE agent_push_parked SET row_key = id::text WHERE row_key IS NULL;
ALTER TABLE agent_push_parked ALTER COLUMN row_key SET NOT NULL;
CREATE INDEX agent_push_parked_open_idx ON agent_push_parked (upstream, tbl, row_key) WHERE resolution IS NULL;
CREATE INDEX agent_push_parked_unreported_idx ON agent_push_parked (upstream, parked_at) WHERE reported_at IS NULL;

-- On the upstream: the parked rows each agent reported and still holds (a resolved row is removed
-- when the agent reports it), with an editor's pending request (retry or discard) until the agent
-- reports it carried out. `row` is the agent's copy, trimmed by the agent to at most 16 KiB.
CREATE TABLE agent_parked_rows (
  agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  tbl             text NOT NULL,
  row_key         text NOT NULL,
  row             jsonb NOT NULL,
  error           text NOT NULL,
  parked_at       timestamptz NOT NULL,
  attempts        int NOT NULL,
  last_attempt_at timestamptz,
  reported_at     timestamptz NOT NULL DEFAULT now(),
  request         text CHECK (request IN ('retry', 'discard')),
  requested_at    timestamptz,
  requested_by    uuid REFERENCES people (id),
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX agent_parked_rows_parked_at_idx ON agent_parked_rows (agent_id, parked_at DESC, id);
CREATE INDEX agent_parked_rows_requests_idx ON agent_parked_rows (agent_id) WHERE request IS NOT NULL;
CREATE INDEX agent_parked_rows_requested_by_idx ON agent_parked_rows (requested_by);
