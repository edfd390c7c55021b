-- The catalog list reads live items of one type and health, a page at a time, by name
-- (configs?type=eq.<type>&health=eq.<health>&deleted_at=is.null&order=name.asc&limit=50&offset=n).
-- The /api/db engine runs it as a prepared statement, so PostgreSQL soon plans it without knowing
-- the values; without this index that generic plan walks the whole name index and filters, or
-- (planned with the values) visits every item of the type and sorts them. With it, the page is
-- offset + limit index entries, already in order. The count of the same filter stays an
-- index-only scan of config_items_live_type_health_status_idx (0016).
CREATE INDEX config_items_live_type_health_name_idx ON config_items (type, health, name) WHERE deleted_at IS NULL;
