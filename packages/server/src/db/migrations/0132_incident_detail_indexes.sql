-- 0132: the incident detail reads an incident's hypotheses and each hypothesis's evidence oldest
-- first (one request for the whole tree). Indexes that end in created_at give both in order
-- without a bitmap scan and a sort per hypothesis; they replace the foreign-key indexes of 0005
-- that they lead with.
DROP INDEX hypotheses_incident_id_idx;
DROP INDEX evidences_hypothesis_id_idx;
CREATE INDEX hypotheses_incident_created_idx ON hypotheses (incident_id, created_at);
CREATE INDEX evidences_hypothesis_created_idx ON evidences (hypothesis_id, created_at);
