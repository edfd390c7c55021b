-- 0210: what the scraper engine (catalog/engine.ts) needs of the catalog tables.
-- An item is one per (scraper, type, id in the source): the ingest upserts by it, so it is unique.
-- Older rows that broke it (demo rows, hand-made rows) keep the newest and lose the rest's identity.
UPDATE config_items c SET external_id = NULL
WHERE c.external_id IS NOT NULL AND c.scraper_id IS NOT NULL AND EXISTS (
  SELECT 1 FROM config_items d
  WHERE d.scraper_id = c.scraper_id AND d.type = c.type AND d.external_id = c.external_id
    AND (d.created_at, d.id) > (c.created_at, c.id));
CREATE UNIQUE INDEX config_items_scraper_identity_key ON config_items (scraper_id, type, external_id)
  WHERE scraper_id IS NOT NULL AND external_id IS NOT NULL;
-- Items pushed through POST /api/catalog/push: a scheduled run of their scraper does not delete them
-- for not having been seen (it never reads them).
ALTER TABLE config_items ADD COLUMN pushed boolean NOT NULL DEFAULT false;
-- Folding identical changes looks up the item's change with the same fingerprint.
CREATE INDEX config_changes_config_fingerprint_idx ON config_changes (config_id, fingerprint);
-- Retention by change type per item keeps the newest N of a type.
CREATE INDEX config_changes_config_type_idx ON config_changes (config_id, change_type, created_at DESC);
