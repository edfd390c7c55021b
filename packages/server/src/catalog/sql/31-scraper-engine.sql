-- The scraper engine's triggers (catalog/engine.ts). Applied after the versioned migrations
-- whenever this file changes (db/README.md): every statement can run again.

-- config_items.updated_at says when the item last changed. A scrape that finds an item unchanged
-- only stamps last_scraped_time; that is not a change, so updated_at stays (the generic
-- set_updated_at would move it on every run of every scraper).
CREATE OR REPLACE FUNCTION config_items_set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at
     AND (to_jsonb(NEW) - 'last_scraped_time' - 'updated_at') IS DISTINCT FROM (to_jsonb(OLD) - 'last_scraped_time' - 'updated_at') THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS config_items_updated_at ON config_items;
CREATE TRIGGER config_items_updated_at BEFORE UPDATE ON config_items FOR EACH ROW EXECUTE FUNCTION config_items_set_updated_at();
