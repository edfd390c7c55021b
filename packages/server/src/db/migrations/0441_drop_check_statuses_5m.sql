-- 0441: takes back 0440 (five-minute buckets of check_statuses for the summary's raw windows).
--
-- Measured on PGlite at 5,000 checks every 30 s (bench/RESULTS.md, 2026-11-26 evening): reading
-- about 12 buckets and the raw ends per check instead of 120 runs did not make the 1-hour summary
-- measurably faster on the loaded host (its time is not in the rows read alone: one statement over
-- ~40,000 buckets still took 1.6-2.6 s). The buckets cost a trigger on every insert of runs and a
-- row rewritten on every run, so they go until a form that is shown to be faster exists.
DROP TRIGGER IF EXISTS check_statuses_5m_insert ON check_statuses;
DROP TRIGGER IF EXISTS check_statuses_5m_delete ON check_statuses;
DROP TRIGGER IF EXISTS check_statuses_5m_update ON check_statuses;
DROP FUNCTION IF EXISTS check_statuses_5m_add();
DROP FUNCTION IF EXISTS check_statuses_5m_redo();
DROP TABLE IF EXISTS check_statuses_5m;
DELETE FROM check_rollup_state WHERE tier = '5m_from';
