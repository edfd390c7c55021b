-- 0190: incident numbers (INC0000001, ...) are allotted only to incidents that are stored. A
-- sequence hands out a number even when the insert is then refused (a check, a trigger, a
-- rolled-back transaction), so numbers vanished. The last number now lives in a counter row that
-- is updated in the inserting transaction: a refused insert rolls the counter back with it.
--
-- Inserting many incidents in one statement would update that one row once per incident (each
-- update walks the row's growing version chain: 20,000 rows took seconds). So the row trigger
-- locks and reads the counter once per transaction, counts on in a transaction-local setting
-- (undone with the statement or savepoint that fails), and a statement trigger writes the
-- setting back. The lock is held until commit: incident creation is serialised, which is what
-- gap-free numbering costs.

CREATE TABLE incident_counter (
  id   boolean PRIMARY KEY DEFAULT true CHECK (id),
  last bigint NOT NULL
);

-- Start after every number already handed out (stored, or burned by the old sequence).
INSERT INTO incident_counter (id, last)
SELECT true, greatest(
  (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM incident_number_seq),
  coalesce((SELECT max(substr(incident_id, 4)::bigint) FROM incidents WHERE incident_id ~ '^INC\d{1,18}$'), 0));

ALTER TABLE incidents ALTER COLUMN incident_id DROP DEFAULT;
DROP SEQUENCE incident_number_seq;

-- The functions, triggers and views of this change are kept in incidents/sql/50-incidents.sql.
