-- 0006: playbooks, their runs, the runs' actions and approvals.

-- playbooks: automation specs: resource selectors (configs, components, checks), parameters,
-- actions, approval rules, on/schedule triggers. spec is the parsed YAML/JSON.
CREATE TABLE playbooks (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  title       text NOT NULL,
  description text,
  icon        text,
  category    text,
  source      text NOT NULL DEFAULT 'UI',
  spec        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_by  uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX playbooks_name_idx ON playbooks (name);
CREATE INDEX playbooks_title_idx ON playbooks (title);
CREATE INDEX playbooks_category_idx ON playbooks (category);
CREATE INDEX playbooks_created_by_idx ON playbooks (created_by);
CREATE INDEX playbooks_created_at_idx ON playbooks (created_at);
CREATE INDEX playbooks_deleted_at_idx ON playbooks (deleted_at);
CREATE TRIGGER playbooks_updated_at BEFORE UPDATE ON playbooks FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- playbook_runs: one execution of a playbook against a resource (component, config or check)
-- with parameters. parent_id is the run this one re-runs. spec is the playbook spec as run.
CREATE TABLE playbook_runs (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_id    uuid NOT NULL REFERENCES playbooks(id) ON DELETE CASCADE,
  parent_id      uuid REFERENCES playbook_runs(id) ON DELETE SET NULL,
  agent_id       uuid REFERENCES agents(id) ON DELETE SET NULL,
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'scheduled', 'running', 'waiting',
                   'completed', 'failed', 'cancelled')),
  spec           jsonb,
  parameters     jsonb NOT NULL DEFAULT '{}'::jsonb,
  request        jsonb,
  component_id   uuid REFERENCES components(id) ON DELETE SET NULL,
  config_id      uuid REFERENCES config_items(id) ON DELETE SET NULL,
  check_id       uuid REFERENCES checks(id) ON DELETE SET NULL,
  trigger_source text NOT NULL DEFAULT 'manual',
  error          text,
  scheduled_time timestamptz NOT NULL DEFAULT now(),
  start_time     timestamptz,
  end_time       timestamptz,
  timeout        interval,
  created_by     uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX playbook_runs_playbook_id_idx ON playbook_runs (playbook_id, created_at DESC);
CREATE INDEX playbook_runs_parent_id_idx ON playbook_runs (parent_id);
CREATE INDEX playbook_runs_agent_id_idx ON playbook_runs (agent_id);
CREATE INDEX playbook_runs_component_id_idx ON playbook_runs (component_id);
CREATE INDEX playbook_runs_config_id_idx ON playbook_runs (config_id);
CREATE INDEX playbook_runs_check_id_idx ON playbook_runs (check_id);
CREATE INDEX playbook_runs_created_by_idx ON playbook_runs (created_by);
CREATE INDEX playbook_runs_status_idx ON playbook_runs (status, scheduled_time);
CREATE INDEX playbook_runs_created_at_idx ON playbook_runs (created_at DESC);
CREATE INDEX playbook_runs_start_time_idx ON playbook_runs (start_time);
CREATE TRIGGER playbook_runs_updated_at BEFORE UPDATE ON playbook_runs FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- playbook_run_actions: the steps of a run, with their output (result: stdout, stderr, logs
-- or a JSON result) or error.
CREATE TABLE playbook_run_actions (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_run_id uuid NOT NULL REFERENCES playbook_runs(id) ON DELETE CASCADE,
  agent_id        uuid REFERENCES agents(id) ON DELETE SET NULL,
  name            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'scheduled', 'running', 'sleeping', 'waiting',
                    'completed', 'failed', 'cancelled', 'skipped')),
  scheduled_time  timestamptz NOT NULL DEFAULT now(),
  start_time      timestamptz,
  end_time        timestamptz,
  result          jsonb,
  error           text,
  retry_count     integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX playbook_run_actions_playbook_run_id_idx ON playbook_run_actions (playbook_run_id, start_time);
CREATE INDEX playbook_run_actions_agent_id_idx ON playbook_run_actions (agent_id);
CREATE INDEX playbook_run_actions_status_idx ON playbook_run_actions (status, scheduled_time);
CREATE TRIGGER playbook_run_actions_updated_at BEFORE UPDATE ON playbook_run_actions FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- playbook_approvals: approvals given to a run waiting for approval, by a person or team.
CREATE TABLE playbook_approvals (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  run_id     uuid NOT NULL REFERENCES playbook_runs(id) ON DELETE CASCADE,
  person_id  uuid REFERENCES people(id) ON DELETE CASCADE,
  team_id    uuid REFERENCES teams(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (person_id IS NOT NULL OR team_id IS NOT NULL)
);
CREATE INDEX playbook_approvals_run_id_idx ON playbook_approvals (run_id);
CREATE INDEX playbook_approvals_person_id_idx ON playbook_approvals (person_id);
CREATE INDEX playbook_approvals_team_id_idx ON playbook_approvals (team_id);
