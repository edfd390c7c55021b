
-- Scheduled resources are listed by the scheduler's sources on every reload: live rows of the
-- local agent. Partial indexes keep that cheap when most rows belong to remote agents.
CREATE INDEX IF NOT EXISTS canaries_live_agent_idx ON canaries (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS config_scrapers_live_agent_idx ON config_scrapers (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS topologies_live_agent_idx ON topologies (agent_id) WHERE deleted_at IS NULL;

-- The functions, triggers and views of this change are kept in jobs/sql/10-events.sql (job_histories).
