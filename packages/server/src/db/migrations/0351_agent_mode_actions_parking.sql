-- 0351: agent mode (agents/mode.ts), on the agent's own database.
--
-- agent_playbook_actions: the playbook actions this agent took from an upstream. The local run
-- that runs one has the action's id (action_id: the upstream's, so no default); reported_at is set once the upstream stored its result, so
-- a result waits here while the upstream is away and is sent again after a restart.
CREATE TABLE agent_playbook_actions (
  action_id   uuid PRIMARY KEY,
  upstream    text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  reported_at timestamptz
);
CREATE INDEX agent_playbook_actions_unreported_idx ON agent_playbook_actions (received_at) WHERE reported_at IS NULL;

-- agent_push_parked: rows the upstream refused for good (a 4xx other than 401/403/408/429), with
-- its answer. They are set aside so the rows behind them move on; nothing here is resent.
CREATE TABLE agent_push_parked (
  id        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  upstream  text NOT NULL,
  tbl       text NOT NULL,
  row       jsonb NOT NULL,
  error     text NOT NULL,
  parked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_push_parked_parked_at_idx ON agent_push_parked (upstream, parked_at);
