-- A number that moves whenever a check's JSON head (check_feed) changes, so the health summary can
-- keep every head in memory and reload them only then (health/summary.ts): the per-request
-- statement then neither looks up 5,000 heads nor sends their 2.5 MB. It is a row, not a sequence,
-- so a new number is seen only together with the heads its transaction wrote.

CREATE TABLE check_feed_state (
  id      boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO check_feed_state DEFAULT VALUES;

-- The functions, triggers and views of this change are kept in health/sql/20-health.sql.
