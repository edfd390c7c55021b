-- 0270: the topology listing (topology/queries/listing.ts) reads the type and status of every live
-- component on each request, for the dashboard's filter choices: a small covering index lets that
-- be an index-only scan instead of a pass over the rows and their properties.
CREATE INDEX components_live_type_status_idx ON components (type, status) INCLUDE (hidden, agent_id)
  WHERE deleted_at IS NULL;
