-- 0004: the topology: topology definitions, components (a tree), and the links from components
-- to other components, config items, checks and teams.

-- topologies: topology definitions (settings "Topology"): a spec that builds a tree of
-- components from lookups, on a schedule.
CREATE TABLE topologies (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  icon       text,
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  schedule   text,
  source     text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX topologies_name_key ON topologies (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX topologies_agent_id_idx ON topologies (agent_id);
CREATE INDEX topologies_created_by_idx ON topologies (created_by);
CREATE INDEX topologies_name_idx ON topologies (name);
CREATE INDEX topologies_namespace_idx ON topologies (namespace);
CREATE INDEX topologies_created_at_idx ON topologies (created_at);
CREATE INDEX topologies_deleted_at_idx ON topologies (deleted_at);
CREATE INDEX topologies_labels_idx ON topologies USING gin (labels);
CREATE TRIGGER topologies_updated_at BEFORE UPDATE ON topologies FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- components: the nodes of a topology. parent_id makes the tree; path holds the dot-separated
-- ancestor ids (root first). properties is a list of {name, type, text, value, max, unit,
-- headline, icon, color, links}; logs a list of named log sources; summary the cached
-- roll-up (checks/insights/incidents by status) the topology engine maintains.
CREATE TABLE components (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topology_id   uuid REFERENCES topologies(id) ON DELETE CASCADE,
  agent_id      uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents(id),
  parent_id     uuid REFERENCES components(id) ON DELETE CASCADE,
  path          text NOT NULL DEFAULT '',
  external_id   text,
  name          text NOT NULL,
  title         text,
  type          text,
  icon          text,
  description   text,
  owner         text,
  lifecycle     text,
  tooltip       text,
  labels        jsonb DEFAULT '{}'::jsonb,
  properties    jsonb DEFAULT '[]'::jsonb,
  logs          jsonb DEFAULT '[]'::jsonb,
  summary       jsonb DEFAULT '{}'::jsonb,
  status        text NOT NULL DEFAULT 'unknown' CHECK (status IN ('healthy', 'unhealthy', 'warning', 'unknown', 'info')),
  status_reason text,
  hidden        boolean NOT NULL DEFAULT false,
  cost_per_minute numeric(16, 6),
  cost_total_1d   numeric(16, 4),
  cost_total_7d   numeric(16, 4),
  cost_total_30d  numeric(16, 4),
  created_by    uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE INDEX components_topology_id_idx ON components (topology_id);
CREATE INDEX components_agent_id_idx ON components (agent_id);
CREATE INDEX components_parent_id_idx ON components (parent_id);
CREATE INDEX components_created_by_idx ON components (created_by);
CREATE INDEX components_path_idx ON components (path text_pattern_ops);
CREATE INDEX components_external_id_idx ON components (external_id);
CREATE INDEX components_name_idx ON components (name);
CREATE INDEX components_type_idx ON components (type);
CREATE INDEX components_status_idx ON components (status);
CREATE INDEX components_created_at_idx ON components (created_at);
CREATE INDEX components_updated_at_idx ON components (updated_at);
CREATE INDEX components_deleted_at_idx ON components (deleted_at);
CREATE INDEX components_labels_idx ON components USING gin (labels);
CREATE TRIGGER components_updated_at BEFORE UPDATE ON components FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- component_relationships: extra (non-tree) links: component_id is also shown under
-- relationship_id (the parent it was selected into).
CREATE TABLE component_relationships (
  component_id      uuid NOT NULL REFERENCES components(id) ON DELETE CASCADE,
  relationship_id   uuid NOT NULL REFERENCES components(id) ON DELETE CASCADE,
  selector_id       text NOT NULL DEFAULT '',
  relationship_path text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at        timestamptz,
  PRIMARY KEY (component_id, relationship_id, selector_id)
);
CREATE INDEX component_relationships_relationship_id_idx ON component_relationships (relationship_id);
CREATE TRIGGER component_relationships_updated_at BEFORE UPDATE ON component_relationships FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- config_component_relationships: config items linked to components ("link to catalog";
-- selector_id 'manual' for links a user made, which can be deleted).
CREATE TABLE config_component_relationships (
  component_id uuid NOT NULL REFERENCES components(id) ON DELETE CASCADE,
  config_id    uuid NOT NULL REFERENCES config_items(id) ON DELETE CASCADE,
  selector_id  text NOT NULL DEFAULT '',
  created_by   uuid REFERENCES people(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  PRIMARY KEY (component_id, config_id, selector_id)
);
CREATE INDEX config_component_relationships_config_id_idx ON config_component_relationships (config_id);
CREATE INDEX config_component_relationships_created_by_idx ON config_component_relationships (created_by);
CREATE TRIGGER config_component_relationships_updated_at BEFORE UPDATE ON config_component_relationships FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- check_component_relationships: checks that report on a component (Checks panel of a
-- component, checks_by_component).
CREATE TABLE check_component_relationships (
  component_id uuid NOT NULL REFERENCES components(id) ON DELETE CASCADE,
  check_id     uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  canary_id    uuid NOT NULL REFERENCES canaries(id) ON DELETE CASCADE,
  selector_id  text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  PRIMARY KEY (component_id, check_id, selector_id)
);
CREATE INDEX check_component_relationships_check_id_idx ON check_component_relationships (check_id);
CREATE INDEX check_component_relationships_canary_id_idx ON check_component_relationships (canary_id);
CREATE TRIGGER check_component_relationships_updated_at BEFORE UPDATE ON check_component_relationships FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- team_components: teams owning components (Teams panel; team link {team_id, component_id,
-- team {name, icon}}).
CREATE TABLE team_components (
  team_id      uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  component_id uuid NOT NULL REFERENCES components(id) ON DELETE CASCADE,
  role         text,
  selector_id  text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, component_id, selector_id)
);
CREATE INDEX team_components_component_id_idx ON team_components (component_id);
