-- Playbooks: names and runs.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- playbook_names: live playbooks for pickers and the Playbooks dropdown.
CREATE OR REPLACE VIEW playbook_names AS
SELECT id, name, namespace, title, description, icon, category, source, created_at, updated_at
FROM playbooks WHERE deleted_at IS NULL;

-- playbook_runs_summary: runs with their playbook's name/title/icon and the resource's name.
CREATE OR REPLACE VIEW playbook_runs_summary AS
SELECT r.id, r.playbook_id, r.parent_id, r.agent_id, r.status, r.parameters, r.component_id, r.config_id, r.check_id,
  r.trigger_source, r.error, r.scheduled_time, r.start_time, r.end_time, r.created_by, r.created_at, r.updated_at,
  p.name AS playbook_name, p.title AS playbook_title, p.icon AS playbook_icon, p.category AS playbook_category,
  CASE WHEN r.end_time IS NOT NULL AND r.start_time IS NOT NULL
    THEN (extract(epoch FROM r.end_time - r.start_time) * 1000)::bigint END AS duration_millis,
  coalesce((SELECT name FROM components WHERE id = r.component_id),
           (SELECT name FROM config_items WHERE id = r.config_id),
           (SELECT name FROM checks WHERE id = r.check_id)) AS resource_name
FROM playbook_runs r
JOIN playbooks p ON p.id = r.playbook_id;
