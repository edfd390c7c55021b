-- The catalog list filters live items by type and then health or status, and shows the total
-- (count=exact). A partial index over those columns answers the count by an index-only scan
-- instead of visiting one heap page per matching item.
CREATE INDEX config_items_live_type_health_status_idx ON config_items (type, health, status) WHERE deleted_at IS NULL;
