-- 0015: the health check engine (packages/server/src/health).

-- A canary's checks are upserted by (canary, type, name) each time its spec changes: one live row
-- per spec entry, so history and ids survive edits. Soft-deleted rows stay for their history.
CREATE UNIQUE INDEX IF NOT EXISTS checks_canary_type_name_key ON checks (canary_id, type, name) WHERE deleted_at IS NULL;
-- The summary feed lists live checks of live canaries.
CREATE INDEX IF NOT EXISTS checks_live_idx ON checks (canary_id) WHERE deleted_at IS NULL;

-- Roll-ups of check_statuses, so long time ranges read a few rows per check instead of every run.
-- One row per check and hour (check_statuses_1h) or UTC day (check_statuses_1d). The housekeeping
-- job recomputes the buckets it touches from the raw rows (hours) or the hourly rows (days), up to
-- its watermark in check_rollup_state: readers take roll-ups before the watermark and raw rows
-- from it on, so no run is counted twice. p95/p97/p99 of an hour are exact; of a day (and of any
-- range read from roll-ups) they are the 95th/97th/99th percentile of the hours' values.
CREATE TABLE check_statuses_1h (
  check_id     uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  bucket       timestamptz NOT NULL,
  passed       integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  duration_sum bigint NOT NULL DEFAULT 0,
  duration_min integer,
  duration_max integer,
  p95          integer,
  p97          integer,
  p99          integer,
  PRIMARY KEY (check_id, bucket)
);
CREATE INDEX check_statuses_1h_bucket_idx ON check_statuses_1h (bucket);

CREATE TABLE check_statuses_1d (
  check_id     uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  bucket       timestamptz NOT NULL,
  passed       integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  duration_sum bigint NOT NULL DEFAULT 0,
  duration_min integer,
  duration_max integer,
  p95          integer,
  p97          integer,
  p99          integer,
  PRIMARY KEY (check_id, bucket)
);
CREATE INDEX check_statuses_1d_bucket_idx ON check_statuses_1d (bucket);

-- Raw runs before `until` are in the roll-ups (one row per tier: '1h', '1d').
CREATE TABLE check_rollup_state (
  tier  text PRIMARY KEY,
  until timestamptz NOT NULL
);
