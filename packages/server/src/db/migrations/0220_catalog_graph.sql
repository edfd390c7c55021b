-- 0220: what the catalog's relationship walks, summary, changes list and analyzers read fast.

-- When an item's health last changed: the "unhealthy for over an hour" analyzer reads it
-- (maintained by config_items_health_changed in catalog/sql/31-catalog-graph.sql).
ALTER TABLE config_items ADD COLUMN health_changed_at timestamptz;
UPDATE config_items SET health_changed_at = updated_at;

-- Changes per item since the window's start, kept by triggers on config_changes (31-catalog-graph.sql).
-- The catalog summary sums them instead of counting a month of changes on every request (a
-- million changes take about a second to count; 100,000 counters a few milliseconds). The read
-- subtracts the few changes between counted_from and now() - 30 days, so it stays exact however
-- long ago the window last moved (config_change_counts_advance() moves it).
CREATE TABLE config_change_counts (
  config_id uuid PRIMARY KEY REFERENCES config_items(id) ON DELETE CASCADE,
  changes   integer NOT NULL DEFAULT 0
);
CREATE TABLE config_change_window (
  id           boolean PRIMARY KEY DEFAULT true CHECK (id),
  counted_from timestamptz NOT NULL
);
INSERT INTO config_change_window (counted_from) VALUES (now() - interval '30 days');
INSERT INTO config_change_counts (config_id, changes)
SELECT config_id, count(*) FROM config_changes WHERE created_at > now() - interval '30 days' GROUP BY config_id;

-- The changes list: a page in time order and its total without visiting the rows (index-only),
-- and the filters the list offers (change_type, severity, source, created_by and
-- external_created_by have their indexes from 0003).
CREATE INDEX config_changes_created_at_config_id_idx ON config_changes (created_at, config_id);
CREATE INDEX config_changes_summary_idx ON config_changes (summary);
CREATE INDEX config_changes_first_observed_idx ON config_changes (first_observed);
-- The analyzers find an item's open insight of one analyzer.
CREATE INDEX config_analysis_config_analyzer_idx ON config_analysis (config_id, analyzer);
-- Manual links and rule links of one scraper are found by selector.
CREATE INDEX config_relationships_selector_id_idx ON config_relationships (selector_id);
-- The graph walk follows links from an item (config_id leads the primary key) and to it.
CREATE INDEX config_relationships_related_config_idx ON config_relationships (related_id, config_id);
