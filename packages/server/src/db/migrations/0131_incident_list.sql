-- 0131: the incident list (incident_summary) made cheap per row, and indexes for its filters
-- (seed 001: status, severity, type, owner; newest first, with an exact count). Each filter's
-- index also carries created_at DESC, so a filtered page is read in order without a sort, and
-- the count of status + severity is an index-only scan. They replace the single-column indexes
-- of 0005 that they lead with.
DROP INDEX incidents_type_idx;
DROP INDEX incidents_severity_idx;
DROP INDEX incidents_created_by_idx;
CREATE INDEX incidents_type_created_idx ON incidents (type, created_at DESC);
CREATE INDEX incidents_severity_created_idx ON incidents (severity, created_at DESC);
CREATE INDEX incidents_created_by_created_idx ON incidents (created_by, created_at DESC);
CREATE INDEX incidents_status_severity_created_idx ON incidents (status, severity, created_at DESC);

-- The functions, triggers and views of this change are kept in incidents/sql/50-incidents.sql (incident_summary).
