-- 0014: settings resources and job history.
-- The Jobs History list shows the agent of each run (seed 002 section 3: "agent (id, name)").
-- CREATE OR REPLACE VIEW may only add columns at the end, so `agent` comes last.
CREATE OR REPLACE VIEW job_histories AS
SELECT h.id, h.name, h.resource_type, h.resource_id, resource_name(h.resource_id) AS resource_name,
  h.agent_id, h.hostname, h.status, h.success_count, h.error_count, h.duration_millis, h.details,
  h.time_start, h.time_end, h.created_at,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = h.agent_id) AS agent
FROM job_history h;

-- Scheduled resources are listed by the scheduler's sources on every reload: live rows of the
-- local agent. Partial indexes keep that cheap when most rows belong to remote agents.
CREATE INDEX IF NOT EXISTS canaries_live_agent_idx ON canaries (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS config_scrapers_live_agent_idx ON config_scrapers (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS topologies_live_agent_idx ON topologies (agent_id) WHERE deleted_at IS NULL;
