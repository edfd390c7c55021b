-- A number that moves whenever a check's JSON head (check_feed) changes, so the health summary can
-- keep every head in memory and reload them only then (health/summary.ts): the per-request
-- statement then neither looks up 5,000 heads nor sends their 2.5 MB. It is a row, not a sequence,
-- so a new number is seen only together with the heads its transaction wrote.

CREATE TABLE check_feed_state (
  id      boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO check_feed_state DEFAULT VALUES;

CREATE FUNCTION check_feed_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_feed_state SET version = version + 1;
  RETURN NULL;
END
$$;

-- per statement on check_feed (the check triggers write one statement per check, an upsert fires
-- both its INSERT and UPDATE triggers: the number may move several times in one change, which
-- only matters as "it moved"); deleting a check deletes its head by cascade, which fires this too
CREATE TRIGGER check_feed_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON check_feed
FOR EACH STATEMENT EXECUTE FUNCTION check_feed_bump();
