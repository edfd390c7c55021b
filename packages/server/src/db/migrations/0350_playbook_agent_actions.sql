-- 0350: playbook actions that run on an agent (spec `runsOn`; playbooks/agent-actions.ts). The
-- runner writes such an action `waiting` with the agents that may take it (runs_on) and its
-- rendered fields (spec); one of those agents claims it through its long-poll (agent_id,
-- claimed_at, status running) and reports the result. Only the waiting ones are looked up.
ALTER TABLE playbook_run_actions ADD COLUMN runs_on uuid[];
ALTER TABLE playbook_run_actions ADD COLUMN spec jsonb;
ALTER TABLE playbook_run_actions ADD COLUMN claimed_at timestamptz;
CREATE INDEX playbook_run_actions_waiting_idx ON playbook_run_actions (scheduled_time) WHERE status = 'waiting';
