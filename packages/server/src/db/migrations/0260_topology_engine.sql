-- 0260: the topology engine (issue 17). A component keeps the statusExpr its spec gave it, so a
-- status roll-up started by a check's event (not by a reconcile) applies it too; re-runs find a
-- component by (topology_id, external_id), its stable identity.
ALTER TABLE components ADD COLUMN IF NOT EXISTS status_expr text;
CREATE INDEX IF NOT EXISTS components_topology_external_id_idx ON components (topology_id, external_id);
