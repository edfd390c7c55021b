-- 0010: catalog functions for the relationship graph and the per-config Changes tab, callable
-- as /api/db/rpc/<name> (results can be filtered, ordered and paged like a table).

-- related_config_ids: the config items reachable from one item.
--   direction: 'outgoing' (children and what it points at), 'incoming' (parents and what points
--              at it) or 'all' (both);
--   include_soft: false follows only the parent/child tree ("hard"); true also follows
--              config_relationships ("soft", the seeds' mode 'both');
--   max_depth: how many hops (default 5).
-- Deleted items and relationships are skipped unless include_deleted.
CREATE OR REPLACE FUNCTION related_config_ids(
  config_id uuid,
  direction text DEFAULT 'all',
  include_soft boolean DEFAULT false,
  max_depth integer DEFAULT 5,
  include_deleted boolean DEFAULT false
) RETURNS TABLE (id uuid, depth integer, relation_direction text, relation text)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE edges(from_id, to_id, relation) AS (
    SELECT ci.parent_id, ci.id, 'parent'::text FROM config_items ci
    WHERE ci.parent_id IS NOT NULL AND (include_deleted OR ci.deleted_at IS NULL)
    UNION ALL
    SELECT r.config_id, r.related_id, r.relation FROM config_relationships r
    WHERE include_soft AND (include_deleted OR r.deleted_at IS NULL)
  ),
  walk(id, depth, relation_direction, relation) AS (
    SELECT e.to_id, 1, 'outgoing'::text, e.relation FROM edges e
    WHERE e.from_id = related_config_ids.config_id AND related_config_ids.direction IN ('outgoing', 'all')
    UNION
    SELECT e.from_id, 1, 'incoming'::text, e.relation FROM edges e
    WHERE e.to_id = related_config_ids.config_id AND related_config_ids.direction IN ('incoming', 'all')
    UNION
    SELECT CASE WHEN w.relation_direction = 'outgoing' THEN e.to_id ELSE e.from_id END, w.depth + 1, w.relation_direction, e.relation
    FROM walk w
    JOIN edges e ON (w.relation_direction = 'outgoing' AND e.from_id = w.id)
                 OR (w.relation_direction = 'incoming' AND e.to_id = w.id)
    WHERE w.depth < related_config_ids.max_depth
  )
  SELECT DISTINCT ON (w.id) w.id, w.depth, w.relation_direction, w.relation
  FROM walk w
  JOIN config_items ci ON ci.id = w.id
  WHERE w.id <> related_config_ids.config_id AND (include_deleted OR ci.deleted_at IS NULL)
  ORDER BY w.id, w.depth
$$;

-- related_changes: the Changes tab of a config: its own changes plus, per type_filter, those of
-- the items below it ('downstream', the default), above it ('upstream'), both ('all') or none
-- ('none'). Rows have the shape of catalog_changes.
CREATE OR REPLACE FUNCTION related_changes(
  config_id uuid,
  type_filter text DEFAULT 'downstream',
  include_soft boolean DEFAULT false,
  include_deleted_configs boolean DEFAULT false
) RETURNS SETOF catalog_changes
LANGUAGE sql STABLE AS $$
  SELECT c.* FROM catalog_changes c
  WHERE c.config_id = related_changes.config_id
     OR (related_changes.type_filter <> 'none' AND c.config_id IN (
       SELECT r.id FROM related_config_ids(
         related_changes.config_id,
         CASE related_changes.type_filter WHEN 'upstream' THEN 'incoming' WHEN 'downstream' THEN 'outgoing' ELSE 'all' END,
         related_changes.include_soft, 5, related_changes.include_deleted_configs) r))
$$;

-- related_configs: the Relationships page: the related items with their graph fields.
CREATE OR REPLACE FUNCTION related_configs(
  config_id uuid,
  direction text DEFAULT 'all',
  include_soft boolean DEFAULT true,
  include_deleted boolean DEFAULT false
) RETURNS TABLE (id uuid, name text, type text, config_class text, status text, health text, tags jsonb, labels jsonb,
                 deleted_at timestamptz, created_at timestamptz, updated_at timestamptz, depth integer,
                 relation_direction text, relation text)
LANGUAGE sql STABLE AS $$
  SELECT ci.id, ci.name, ci.type, ci.config_class, ci.status, ci.health, ci.tags, ci.labels, ci.deleted_at,
    ci.created_at, ci.updated_at, r.depth, r.relation_direction, r.relation
  FROM related_config_ids(related_configs.config_id, related_configs.direction, related_configs.include_soft, 5,
                          related_configs.include_deleted) r
  JOIN config_items ci ON ci.id = r.id
$$;
