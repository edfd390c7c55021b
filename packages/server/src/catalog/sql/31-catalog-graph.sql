-- The catalog's graph: the relationship walk (incoming, outgoing, both; hard, soft or both; a
-- maximum depth; cycle-safe), the graph and change functions built on it, the 30-day change
-- counters the summary reads, and when an item's health last changed.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- config_graph_walk: every edge met walking from root, breadth first.
--   direction 'outgoing' follows edges from an item (parent -> child, config_id -> related_id),
--   'incoming' follows them backwards, 'all' walks both ways (each walk keeps its direction:
--   the parents of a child are not "incoming" of the root);
--   mode 'hard' follows the parent/child tree (config_items.parent_id), 'soft' the
--   config_relationships, 'both' both;
--   an item already reached is not walked again, so a cycle ends the walk instead of repeating it.
-- Each row is one edge as stored (from_id -> to_id), with the depth of the item it led to. Edges
-- to items reached earlier are listed too (the graph draws them) but not followed. Deleted items
-- and links are skipped unless include_deleted.
CREATE OR REPLACE FUNCTION config_graph_walk(
  root uuid,
  direction text DEFAULT 'all',
  mode text DEFAULT 'hard',
  max_depth integer DEFAULT 5,
  include_deleted boolean DEFAULT false
) RETURNS TABLE (from_id uuid, to_id uuid, depth integer, walk text, relation_type text, relation text, selector_id text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
  w text;
  d integer;
  visited uuid[];
  frontier uuid[];
  e_from uuid[];
  e_to uuid[];
  e_type text[];
  e_rel text[];
  e_sel text[];
  hard boolean := mode IN ('hard', 'both');
  soft boolean := mode IN ('soft', 'both');
BEGIN
  IF direction IS NULL OR direction NOT IN ('all', 'incoming', 'outgoing') THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('type_filter must be all, incoming or outgoing, not %s', coalesce(direction, 'null'));
  END IF;
  IF mode IS NULL OR mode NOT IN ('hard', 'soft', 'both') THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('mode must be hard, soft or both, not %s', coalesce(mode, 'null'));
  END IF;
  IF max_depth IS NULL OR max_depth < 0 OR max_depth > 20 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'max_depth must be from 0 to 20';
  END IF;
  FOREACH w IN ARRAY CASE direction WHEN 'all' THEN ARRAY['outgoing', 'incoming'] ELSE ARRAY[direction] END LOOP
    visited := ARRAY[root];
    frontier := ARRAY[root];
    FOR d IN 1..max_depth LOOP
      EXIT WHEN cardinality(frontier) = 0;
      SELECT array_agg(e.a), array_agg(e.b), array_agg(e.t), array_agg(e.r), array_agg(e.s)
        INTO e_from, e_to, e_type, e_rel, e_sel
      FROM (
        -- children
        SELECT f.id AS a, c.id AS b, 'hard'::text AS t, 'parent'::text AS r, NULL::text AS s
        FROM unnest(frontier) f(id) JOIN config_items c ON c.parent_id = f.id
        WHERE hard AND w = 'outgoing' AND (include_deleted OR c.deleted_at IS NULL)
        UNION ALL
        -- the parent
        SELECT p.id, f.id, 'hard', 'parent', NULL
        FROM unnest(frontier) f(id) JOIN config_items c ON c.id = f.id JOIN config_items p ON p.id = c.parent_id
        WHERE hard AND w = 'incoming' AND (include_deleted OR p.deleted_at IS NULL)
        UNION ALL
        -- links from the item
        SELECT r.config_id, r.related_id, 'soft', r.relation, r.selector_id
        FROM unnest(frontier) f(id) JOIN config_relationships r ON r.config_id = f.id
        JOIN config_items c ON c.id = r.related_id
        WHERE soft AND w = 'outgoing' AND (include_deleted OR (r.deleted_at IS NULL AND c.deleted_at IS NULL))
        UNION ALL
        -- links to the item
        SELECT r.config_id, r.related_id, 'soft', r.relation, r.selector_id
        FROM unnest(frontier) f(id) JOIN config_relationships r ON r.related_id = f.id
        JOIN config_items c ON c.id = r.config_id
        WHERE soft AND w = 'incoming' AND (include_deleted OR (r.deleted_at IS NULL AND c.deleted_at IS NULL))
      ) e;
      EXIT WHEN e_from IS NULL;
      RETURN QUERY SELECT x.a, x.b, d, w, x.t, x.r, x.s FROM unnest(e_from, e_to, e_type, e_rel, e_sel) x(a, b, t, r, s);
      -- the items first reached at this depth (EXCEPT hashes: no n x m comparison)
      frontier := ARRAY(
        SELECT n FROM unnest(CASE w WHEN 'outgoing' THEN e_to ELSE e_from END) n
        EXCEPT SELECT v FROM unnest(visited) v);
      visited := visited || frontier;
    END LOOP;
  END LOOP;
END
$$;

-- related_configs_recursive: the Relationships page (table and graph, seed 002 sections 2.6,
-- 3 "graph config node" and 7.1). type_filter all/incoming/outgoing; mode 'hard' (parent/child)
-- or 'both' (also soft links; 'soft' alone too). One row per item: the root itself (depth 0,
-- direction 'self') and every item reached, with related_ids, the items its edges lead to, and
-- links, those edges with their relation, kind (hard/soft) and selector_id ('manual' links can be
-- unlinked). configTypes, status and health are /api/db filters on the result
-- (rpc/related_configs_recursive?config_id=...&type=in.(...)&health=filter.healthy,!unknown).
CREATE OR REPLACE FUNCTION related_configs_recursive(
  config_id uuid,
  type_filter text DEFAULT 'all',
  mode text DEFAULT 'hard',
  max_depth integer DEFAULT 5,
  include_deleted_configs boolean DEFAULT false
) RETURNS TABLE (id uuid, name text, type text, config_class text, status text, health text, ready boolean,
                 tags jsonb, labels jsonb, agent_id uuid, path text, deleted_at timestamptz, created_at timestamptz,
                 updated_at timestamptz, cost_per_minute numeric, cost_total_1d numeric, cost_total_7d numeric,
                 cost_total_30d numeric, changes integer, related_ids uuid[], links jsonb, depth integer,
                 direction text, relation_type text, relation text)
LANGUAGE sql STABLE AS $$
  WITH w AS (
    SELECT * FROM config_graph_walk(related_configs_recursive.config_id, related_configs_recursive.type_filter,
      related_configs_recursive.mode, related_configs_recursive.max_depth, related_configs_recursive.include_deleted_configs)
  ),
  nodes AS (
    SELECT DISTINCT ON (n.id) n.id, n.depth, n.direction, n.relation_type, n.relation FROM (
      SELECT CASE w.walk WHEN 'outgoing' THEN w.to_id ELSE w.from_id END AS id, w.depth, w.walk AS direction,
        w.relation_type, w.relation FROM w
      UNION ALL
      SELECT related_configs_recursive.config_id, 0, 'self', NULL, NULL
    ) n
    ORDER BY n.id, n.depth
  ),
  out_edges AS (
    SELECT e.from_id, array_agg(DISTINCT e.to_id) AS ids,
      jsonb_agg(DISTINCT jsonb_build_object('related_id', e.to_id, 'relation', e.relation,
        'relation_type', e.relation_type, 'selector_id', e.selector_id)) AS links
    FROM w e GROUP BY e.from_id
  )
  SELECT ci.id, ci.name, ci.type, ci.config_class, ci.status, ci.health, ci.ready, ci.tags, ci.labels, ci.agent_id,
    ci.path, ci.deleted_at, ci.created_at, ci.updated_at, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
    ci.cost_total_30d,
    (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id AND cc.created_at > now() - interval '30 days')::integer,
    coalesce(o.ids, '{}'), coalesce(o.links, '[]'::jsonb), n.depth, n.direction, n.relation_type, n.relation
  FROM nodes n
  JOIN config_items ci ON ci.id = n.id
  LEFT JOIN out_edges o ON o.from_id = n.id
  ORDER BY n.depth, ci.type, ci.name
$$;

-- related_config_ids: the items reachable from one item, nearest first (one row per item).
--   direction 'outgoing', 'incoming' or 'all'; include_soft false follows only the parent/child
--   tree ("hard"), true also the links ("soft", the seeds' mode 'both'); max_depth hops.
CREATE OR REPLACE FUNCTION related_config_ids(
  config_id uuid,
  direction text DEFAULT 'all',
  include_soft boolean DEFAULT false,
  max_depth integer DEFAULT 5,
  include_deleted boolean DEFAULT false
) RETURNS TABLE (id uuid, depth integer, relation_direction text, relation text)
LANGUAGE sql STABLE AS $$
  SELECT DISTINCT ON (x.id) x.id, x.depth, x.walk, x.relation
  FROM (
    SELECT CASE w.walk WHEN 'outgoing' THEN w.to_id ELSE w.from_id END AS id, w.depth, w.walk, w.relation
    FROM config_graph_walk(related_config_ids.config_id, related_config_ids.direction,
      CASE WHEN related_config_ids.include_soft THEN 'both' ELSE 'hard' END,
      related_config_ids.max_depth, related_config_ids.include_deleted) w
  ) x
  WHERE x.id <> related_config_ids.config_id
  ORDER BY x.id, x.depth
$$;

-- related_changes_recursive: the Changes tab of a config (seed 002 section 2.4): its own changes
-- plus, per type_filter, those of the items below it ('downstream', the default), above it
-- ('upstream'), both ('all') or none ('none'); soft also follows links. Rows have the shape of
-- catalog_changes.
CREATE OR REPLACE FUNCTION related_changes_recursive(
  config_id uuid,
  type_filter text DEFAULT 'downstream',
  include_deleted_configs boolean DEFAULT false,
  max_depth integer DEFAULT 5,
  soft boolean DEFAULT false
) RETURNS SETOF catalog_changes
LANGUAGE sql STABLE AS $$
  SELECT c.* FROM catalog_changes c
  WHERE c.config_id IN (
    SELECT related_changes_recursive.config_id
    UNION
    SELECT r.id FROM related_config_ids(
      related_changes_recursive.config_id,
      CASE related_changes_recursive.type_filter WHEN 'upstream' THEN 'incoming' WHEN 'downstream' THEN 'outgoing' ELSE 'all' END,
      related_changes_recursive.soft,
      CASE WHEN related_changes_recursive.type_filter = 'none' THEN 0 ELSE related_changes_recursive.max_depth END,
      related_changes_recursive.include_deleted_configs) r)
$$;

-- related_changes: related_changes_recursive with the arguments of the first catalog release.
CREATE OR REPLACE FUNCTION related_changes(
  config_id uuid,
  type_filter text DEFAULT 'downstream',
  include_soft boolean DEFAULT false,
  include_deleted_configs boolean DEFAULT false
) RETURNS SETOF catalog_changes
LANGUAGE sql STABLE AS $$
  SELECT * FROM related_changes_recursive(related_changes.config_id, related_changes.type_filter,
    related_changes.include_deleted_configs, 5, related_changes.include_soft)
$$;

-- related_configs: the related items with their graph fields (one row per item, root excluded).
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

-- The 30-day change counters (0220): statement triggers with transition tables, so a scrape
-- that writes a thousand changes updates each item's counter once. A write whose changes lie
-- near the window's start takes the window row FOR SHARE, so config_change_counts_advance()
-- cannot move the start past them unseen.
CREATE OR REPLACE FUNCTION config_change_counts_apply(deltas jsonb) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO config_change_counts AS c (config_id, changes)
  SELECT (d ->> 'config_id')::uuid, (d ->> 'n')::integer FROM jsonb_array_elements(deltas) d
  WHERE (d ->> 'n')::integer <> 0
    AND EXISTS (SELECT 1 FROM config_items ci WHERE ci.id = (d ->> 'config_id')::uuid)
  ON CONFLICT (config_id) DO UPDATE SET changes = c.changes + excluded.changes
$$;

CREATE OR REPLACE FUNCTION config_change_counts_track() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  since timestamptz;
  oldest timestamptz;
  deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT min(n.created_at) INTO oldest FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT min(o.created_at) INTO oldest FROM old_rows o;
  ELSE
    SELECT least((SELECT min(o.created_at) FROM old_rows o), (SELECT min(n.created_at) FROM new_rows n)) INTO oldest;
  END IF;
  IF oldest IS NULL THEN
    RETURN NULL;
  END IF;
  IF oldest < now() - interval '29 days' THEN
    SELECT counted_from INTO since FROM config_change_window FOR SHARE;
  ELSE
    SELECT counted_from INTO since FROM config_change_window;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_object('config_id', x.config_id, 'n', x.n)) INTO deltas
    FROM (SELECT n.config_id, count(*) AS n FROM new_rows n WHERE n.created_at > since GROUP BY n.config_id) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_object('config_id', x.config_id, 'n', -x.n)) INTO deltas
    FROM (SELECT o.config_id, count(*) AS n FROM old_rows o WHERE o.created_at > since GROUP BY o.config_id) x;
  ELSE
    SELECT jsonb_agg(jsonb_build_object('config_id', x.config_id, 'n', x.n)) INTO deltas
    FROM (
      SELECT y.config_id, sum(y.n) AS n FROM (
        SELECT o.config_id, -1 AS n FROM old_rows o WHERE o.created_at > since
        UNION ALL
        SELECT n.config_id, 1 FROM new_rows n WHERE n.created_at > since
      ) y GROUP BY y.config_id
    ) x;
  END IF;
  IF deltas IS NOT NULL THEN
    PERFORM config_change_counts_apply(deltas);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS config_changes_counts_insert ON config_changes;
CREATE TRIGGER config_changes_counts_insert AFTER INSERT ON config_changes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION config_change_counts_track();
DROP TRIGGER IF EXISTS config_changes_counts_update ON config_changes;
CREATE TRIGGER config_changes_counts_update AFTER UPDATE ON config_changes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION config_change_counts_track();
DROP TRIGGER IF EXISTS config_changes_counts_delete ON config_changes;
CREATE TRIGGER config_changes_counts_delete AFTER DELETE ON config_changes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION config_change_counts_track();

-- config_change_counts_advance: moves the window's start to now() - 30 days, taking the changes
-- it passes off their items' counters. Reads stay exact without it (they subtract what lies
-- between the start and 30 days ago); it keeps that part small. Returns the new start.
CREATE OR REPLACE FUNCTION config_change_counts_advance() RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  since timestamptz;
  target timestamptz := now() - interval '30 days';
BEGIN
  SELECT counted_from INTO since FROM config_change_window FOR UPDATE;
  IF since >= target THEN
    RETURN since;
  END IF;
  UPDATE config_change_counts c SET changes = c.changes - x.n
  FROM (
    SELECT cc.config_id, count(*) AS n FROM config_changes cc
    WHERE cc.created_at > since AND cc.created_at <= target GROUP BY cc.config_id
  ) x
  WHERE c.config_id = x.config_id;
  UPDATE config_change_window SET counted_from = target;
  RETURN target;
END
$$;

-- config_changes_30d: each item's changes of the last 30 days, from the counters.
CREATE OR REPLACE VIEW config_changes_30d AS
SELECT c.config_id, c.changes - coalesce(stale.n, 0) AS changes
FROM config_change_counts c
LEFT JOIN (
  SELECT cc.config_id, count(*) AS n FROM config_changes cc, config_change_window w
  WHERE cc.created_at > w.counted_from AND cc.created_at <= now() - interval '30 days'
  GROUP BY cc.config_id
) stale ON stale.config_id = c.config_id;

-- When an item's health last changed (0220): the "unhealthy for over an hour" analyzer.
CREATE OR REPLACE FUNCTION config_items_health_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.health_changed_at := coalesce(NEW.health_changed_at, now());
  ELSIF NEW.health IS DISTINCT FROM OLD.health THEN
    NEW.health_changed_at := now();
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS config_items_health_changed ON config_items;
CREATE TRIGGER config_items_health_changed BEFORE INSERT OR UPDATE OF health ON config_items
  FOR EACH ROW EXECUTE FUNCTION config_items_health_changed();
