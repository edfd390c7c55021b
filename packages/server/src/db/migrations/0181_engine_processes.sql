-- 0181: which process wrote a RUNNING job-history row, and whether that process is still alive
-- (issue 12 point 14). A starting replica used to mark every RUNNING row STOPPED, including the
-- runs other replicas were in the middle of; a replica that died left its rows RUNNING until the
-- next start.
--
-- engine_processes: one row per process that runs the engines (WATCHDECK_ROLE all or worker),
-- inserted at start, its last_seen moved by a heartbeat, deleted at a clean stop. A process whose
-- last_seen is older than the liveness window (jobs/processes.ts) is gone: the survivors close
-- its RUNNING rows as STOPPED and delete its row. Times are the database's, so replicas' clocks
-- need not agree.
CREATE TABLE engine_processes (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hostname   text,
  pid        integer,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_seen  timestamptz NOT NULL DEFAULT now()
);

-- The process that wrote the row (no foreign key: the process row goes long before its history).
-- NULL for rows written outside the engines and before this migration.
ALTER TABLE job_history ADD COLUMN process_id uuid;
CREATE INDEX job_history_running_process_idx ON job_history (process_id) WHERE status = 'RUNNING';
