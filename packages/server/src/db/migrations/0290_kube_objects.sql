-- 0290: what the Kubernetes-style API (kube/) keeps about a resource besides the resource's own
-- row: annotations (kubectl's last-applied configuration), labels of the kinds whose table has
-- no labels column, server-side apply's managed fields, and the name of a kind whose table has
-- none (notification silences). One row per resource, keyed by its table and id; the resource's
-- own row stays the one the UI shows.
CREATE TABLE kube_objects (
  table_name     text NOT NULL,
  row_id         uuid NOT NULL,
  name           text,
  labels         jsonb NOT NULL DEFAULT '{}'::jsonb,
  annotations    jsonb NOT NULL DEFAULT '{}'::jsonb,
  managed_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
  generation     bigint NOT NULL DEFAULT 1,
  PRIMARY KEY (table_name, row_id)
);
CREATE INDEX kube_objects_name ON kube_objects (table_name, name);
