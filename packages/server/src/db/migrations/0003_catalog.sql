-- 0003: the catalog: scrapers, configuration items, their changes, insights and relationships.

-- config_scrapers: catalog scraper definitions (kubernetes, aws, azure, file, sql, http, ...).
-- spec holds the scraper kind's fields plus schedule and retention.
CREATE TABLE config_scrapers (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id    uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  description text,
  icon        text,
  labels      jsonb DEFAULT '{}'::jsonb,
  spec        jsonb NOT NULL DEFAULT '{}'::jsonb,
  schedule    text,
  source      text NOT NULL DEFAULT 'UI',
  created_by  uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE INDEX config_scrapers_agent_id_idx ON config_scrapers (agent_id);
CREATE INDEX config_scrapers_created_by_idx ON config_scrapers (created_by);
CREATE INDEX config_scrapers_name_idx ON config_scrapers (name);
CREATE INDEX config_scrapers_created_at_idx ON config_scrapers (created_at);
CREATE INDEX config_scrapers_deleted_at_idx ON config_scrapers (deleted_at);
CREATE TRIGGER config_scrapers_updated_at BEFORE UPDATE ON config_scrapers FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- config_items: the catalog: every configuration item a scraper found (Kubernetes::Pod,
-- AWS::EC2::Instance, ...). config is the item's body; tags are the scraper's well-known keys
-- (namespace, cluster, account, region); labels are the item's own labels. health is the
-- normalised colour; status the source's text. path is the dot-separated ancestor ids.
CREATE TABLE config_items (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  scraper_id        uuid REFERENCES config_scrapers(id) ON DELETE SET NULL,
  agent_id          uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  parent_id         uuid REFERENCES config_items(id) ON DELETE SET NULL,
  path              text,
  external_id       text,
  type              text NOT NULL,
  config_class      text NOT NULL,
  name              text NOT NULL,
  description       text,
  source            text,
  format            text NOT NULL DEFAULT 'json',
  config            jsonb,
  status            text,
  health            text CHECK (health IN ('healthy', 'unhealthy', 'unknown', 'warning')),
  ready             boolean,
  labels            jsonb DEFAULT '{}'::jsonb,
  tags              jsonb DEFAULT '{}'::jsonb,
  properties        jsonb,
  cost_per_minute   numeric(16, 6),
  cost_total_1d     numeric(16, 4),
  cost_total_7d     numeric(16, 4),
  cost_total_30d    numeric(16, 4),
  last_scraped_time timestamptz,
  delete_reason     text,
  created_by        uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at        timestamptz
);
CREATE INDEX config_items_scraper_id_idx ON config_items (scraper_id, type, external_id);
CREATE INDEX config_items_agent_id_idx ON config_items (agent_id);
CREATE INDEX config_items_parent_id_idx ON config_items (parent_id);
CREATE INDEX config_items_created_by_idx ON config_items (created_by);
CREATE INDEX config_items_path_idx ON config_items (path text_pattern_ops);
CREATE INDEX config_items_external_id_idx ON config_items (external_id);
CREATE INDEX config_items_type_idx ON config_items (type, name);
CREATE INDEX config_items_config_class_idx ON config_items (config_class);
CREATE INDEX config_items_name_idx ON config_items (name);
CREATE INDEX config_items_status_idx ON config_items (status);
CREATE INDEX config_items_health_idx ON config_items (health);
CREATE INDEX config_items_created_at_idx ON config_items (created_at);
CREATE INDEX config_items_updated_at_idx ON config_items (updated_at);
CREATE INDEX config_items_deleted_at_idx ON config_items (deleted_at);
CREATE INDEX config_items_labels_idx ON config_items USING gin (labels);
CREATE INDEX config_items_tags_idx ON config_items USING gin (tags);
CREATE TRIGGER config_items_updated_at BEFORE UPDATE ON config_items FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- config_changes: the change history of config items (diffs, events, deployments, ...).
-- Identical changes are de-duplicated into one row with count and first_observed; created_at
-- is the last time it was seen.
CREATE TABLE config_changes (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id           uuid NOT NULL REFERENCES config_items(id) ON DELETE CASCADE,
  external_change_id  text,
  change_type         text NOT NULL,
  severity            text CHECK (severity IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  source              text,
  summary             text,
  details             jsonb,
  patches             jsonb,
  diff                text,
  fingerprint         text,
  count               integer NOT NULL DEFAULT 1,
  first_observed      timestamptz NOT NULL DEFAULT now(),
  created_by          uuid REFERENCES people(id) ON DELETE SET NULL,
  external_created_by text,
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX config_changes_external_change_id_key ON config_changes (config_id, external_change_id) WHERE external_change_id IS NOT NULL;
CREATE INDEX config_changes_config_id_idx ON config_changes (config_id, created_at DESC);
CREATE INDEX config_changes_created_by_idx ON config_changes (created_by);
CREATE INDEX config_changes_created_at_idx ON config_changes (created_at DESC);
CREATE INDEX config_changes_change_type_idx ON config_changes (change_type);
CREATE INDEX config_changes_severity_idx ON config_changes (severity);
CREATE INDEX config_changes_source_idx ON config_changes (source);
CREATE INDEX config_changes_external_created_by_idx ON config_changes (external_created_by);
CREATE INDEX config_changes_fingerprint_idx ON config_changes (fingerprint);

-- config_analysis: insights about config items found by analyzers (security, cost, ...).
CREATE TABLE config_analysis (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id      uuid NOT NULL REFERENCES config_items(id) ON DELETE CASCADE,
  scraper_id     uuid REFERENCES config_scrapers(id) ON DELETE SET NULL,
  analyzer       text NOT NULL,
  analysis_type  text NOT NULL CHECK (analysis_type IN ('cost', 'availability', 'performance', 'security', 'integration',
                   'compliance', 'technical_debt', 'reliability', 'recommendation', 'other')),
  severity       text NOT NULL DEFAULT 'info'
                 CHECK (severity IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'silenced')),
  message        text,
  summary        text,
  analysis       jsonb,
  source         text,
  first_observed timestamptz NOT NULL DEFAULT now(),
  last_observed  timestamptz NOT NULL DEFAULT now(),
  created_by     uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_analysis_config_id_idx ON config_analysis (config_id);
CREATE INDEX config_analysis_scraper_id_idx ON config_analysis (scraper_id);
CREATE INDEX config_analysis_created_by_idx ON config_analysis (created_by);
CREATE INDEX config_analysis_analyzer_idx ON config_analysis (analyzer);
CREATE INDEX config_analysis_analysis_type_idx ON config_analysis (analysis_type);
CREATE INDEX config_analysis_severity_idx ON config_analysis (severity);
CREATE INDEX config_analysis_status_idx ON config_analysis (status);
CREATE INDEX config_analysis_last_observed_idx ON config_analysis (last_observed DESC);
CREATE INDEX config_analysis_first_observed_idx ON config_analysis (first_observed);
CREATE TRIGGER config_analysis_updated_at BEFORE UPDATE ON config_analysis FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- config_relationships: directed links between config items (config_id -> related_id:
-- a Deployment owns a ReplicaSet, a Pod runs on a Node). selector_id 'manual' marks links a
-- user made (those can be unlinked); others come from scrapers.
CREATE TABLE config_relationships (
  config_id   uuid NOT NULL REFERENCES config_items(id) ON DELETE CASCADE,
  related_id  uuid NOT NULL REFERENCES config_items(id) ON DELETE CASCADE,
  relation    text NOT NULL DEFAULT '',
  selector_id text NOT NULL DEFAULT '',
  created_by  uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (config_id, related_id, selector_id),
  CHECK (config_id <> related_id)
);
CREATE INDEX config_relationships_related_id_idx ON config_relationships (related_id);
CREATE INDEX config_relationships_created_by_idx ON config_relationships (created_by);
CREATE INDEX config_relationships_relation_idx ON config_relationships (relation);
CREATE INDEX config_relationships_deleted_at_idx ON config_relationships (deleted_at);
CREATE TRIGGER config_relationships_updated_at BEFORE UPDATE ON config_relationships FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- check_config_relationships: which checks watch which config items (Checks tab of a config,
-- check_summary_for_config).
CREATE TABLE check_config_relationships (
  config_id   uuid NOT NULL REFERENCES config_items(id) ON DELETE CASCADE,
  check_id    uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  canary_id   uuid NOT NULL REFERENCES canaries(id) ON DELETE CASCADE,
  selector_id text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (config_id, check_id, selector_id)
);
CREATE INDEX check_config_relationships_check_id_idx ON check_config_relationships (check_id);
CREATE INDEX check_config_relationships_canary_id_idx ON check_config_relationships (canary_id);
CREATE TRIGGER check_config_relationships_updated_at BEFORE UPDATE ON check_config_relationships FOR EACH ROW EXECUTE FUNCTION set_updated_at();
