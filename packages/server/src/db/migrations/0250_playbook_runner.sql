-- 0250: the playbook runner (playbooks/README.md). Runs are claimed through the database by the
-- runner of any server process: claimed_by names the process, lease_until is renewed while it
-- runs, and a run whose lease lapsed (its process died) is taken over and resumed from its last
-- finished action. pending_approval: a run waiting for the approvers its spec names.

ALTER TABLE playbook_runs DROP CONSTRAINT IF EXISTS playbook_runs_status_check;
ALTER TABLE playbook_runs ADD CONSTRAINT playbook_runs_status_check CHECK (status IN ('pending', 'pending_approval',
  'scheduled', 'running', 'waiting', 'completed', 'failed', 'cancelled'));
ALTER TABLE playbook_runs ADD COLUMN claimed_by uuid;
ALTER TABLE playbook_runs ADD COLUMN lease_until timestamptz;
ALTER TABLE playbook_runs ADD COLUMN attempts integer NOT NULL DEFAULT 0;

-- the runner's two questions: which runs are due, which leases lapsed (both small partial indexes)
CREATE INDEX playbook_runs_due_idx ON playbook_runs (scheduled_time) WHERE status IN ('pending', 'scheduled');
CREATE INDEX playbook_runs_lease_idx ON playbook_runs (lease_until) WHERE status = 'running';
-- the run list's filters (status, playbook, time range), newest first
CREATE INDEX playbook_runs_status_created_idx ON playbook_runs (status, created_at DESC);
CREATE INDEX playbook_runs_playbook_status_created_idx ON playbook_runs (playbook_id, status, created_at DESC);

-- An action runs at most once per run: its row is written (status running) before its effect.
CREATE UNIQUE INDEX playbook_run_actions_run_name_key ON playbook_run_actions (playbook_run_id, name);

-- One approval per person per run.
CREATE UNIQUE INDEX playbook_approvals_run_person_key ON playbook_approvals (run_id, person_id);
