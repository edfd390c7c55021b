-- 0105: what incident rules and the automatic definition of done react to (server
-- incidents/README.md):
--   * components publish component.status.unhealthy / component.status.healthy when their status
--     changes (and unhealthy when inserted unhealthy), in the change's own transaction, and keep
--     last_transition_time, the start of the current status (a definition of done's `age`);
--   * the incidents area subscribes to check.passed / check.failed (health/record.ts) and to those
--     component events: each one is copied as 'incident.resource.transition' in the publishing
--     transaction. The queue has one handler per event name, so the originals stay for any other
--     consumer (notifications) and incidents handle their own copy.

ALTER TABLE components ADD COLUMN last_transition_time timestamptz;

-- The functions, triggers and views of this change are kept in topology/sql/40-topology.sql.
