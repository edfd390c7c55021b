-- 0440: five-minute buckets of check_statuses for the summary's raw windows (up to 6 hours; issue 24).
--
-- At 5,000 checks every 30 s the 1-hour summary read and aggregated 600,000 runs per request, on
-- PGlite on the server's one thread (2.5-3 s after VACUUM). One row per check and 5-minute UTC
-- bucket carries everything the feed takes from runs: counts, last pass / fail, the duration sum
-- (rolling1h) and every duration (as text, unordered), so percentiles stay exact. The summary reads
-- the whole buckets inside a window and the raw runs of its two partial ends: about 12 buckets and
-- 10 runs per check for an hour instead of 120 runs.
--
-- Maintained by statement triggers on check_statuses (health/sql/20-health.sql): an insert adds
-- its runs to their buckets, a delete or update recomputes the buckets it touched, so a bucket is
-- always exactly its runs (late runs included). The retention job deletes old buckets itself.
CREATE TABLE check_statuses_5m (
  check_id     uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  bucket       timestamptz NOT NULL,
  passed       integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  last_pass    timestamptz,
  last_fail    timestamptz,
  duration_sum bigint NOT NULL DEFAULT 0,
  -- the bucket's durations in ms, comma-separated, in no order
  durations    text NOT NULL DEFAULT '',
  PRIMARY KEY (check_id, bucket)
);
CREATE INDEX check_statuses_5m_bucket_idx ON check_statuses_5m (bucket);

-- The buckets are complete from tier '5m_from' on (runs before it were never added): readers take
-- raw runs before it. The last hour is filled here; the triggers are created by the area file in
-- this same transaction, and the lock keeps runs from being inserted in between.
LOCK TABLE check_statuses IN SHARE MODE;
INSERT INTO check_rollup_state (tier, until)
VALUES ('5m_from', date_bin('5 minutes', now() - interval '1 hour', timestamptz '2000-01-01 00:00:00+00'))
ON CONFLICT (tier) DO UPDATE SET until = EXCLUDED.until;
INSERT INTO check_statuses_5m (check_id, bucket, passed, failed, last_pass, last_fail, duration_sum, durations)
SELECT check_id, date_bin('5 minutes', time, timestamptz '2000-01-01 00:00:00+00'),
  count(*) FILTER (WHERE status), count(*) FILTER (WHERE NOT status),
  max(time) FILTER (WHERE status), max(time) FILTER (WHERE NOT status),
  sum(duration), string_agg(duration::text, ',')
FROM check_statuses
WHERE time >= (SELECT until FROM check_rollup_state WHERE tier = '5m_from')
GROUP BY 1, 2;
