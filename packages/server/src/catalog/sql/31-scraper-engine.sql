-- The scraper engine's triggers (catalog/engine.ts). Applied after the versioned migrations
-- whenever this file changes (db/README.md): every statement can run again.

-- config_items.updated_at says when the item last changed. A scrape that finds an item unchanged
-- only stamps last_scraped_time: that is not a change, so updated_at stays (the generic trigger
-- would move it on every run of every scraper). The WHEN clause skips the call altogether; the
-- engine sets updated_at itself on the items that did change.
DROP TRIGGER IF EXISTS config_items_updated_at ON config_items;
CREATE TRIGGER config_items_updated_at BEFORE UPDATE ON config_items FOR EACH ROW
  WHEN (NEW.last_scraped_time IS NOT DISTINCT FROM OLD.last_scraped_time)
  EXECUTE FUNCTION set_updated_at();
