-- 0201: a definition of done is judged as soon as it is written, not up to a minute later. An
-- evidence that joins the definition of done (or whose script or resource changes) publishes
-- incident.evidence.dod_changed in the write's transaction; the incidents area evaluates that evidence
-- (incidents/index.ts, dod.ts). The scheduled job still evaluates everything every minute.
-- Comments are marked done by hand. Bulk loaders that turn the changelog off (the demo seed)
-- write history, not live actions: the scheduled job judges their rows.
CREATE FUNCTION evidences_dod_evaluate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT incident_history_enabled() THEN RETURN NULL; END IF;
  -- one event per evidence and transaction: a pending one already covers this write
  PERFORM publish_event('incident.evidence.dod_changed', NEW.id::text || '/' || txid_current()::text,
    jsonb_build_object('evidence_id', NEW.id, 'type', NEW.type));
  RETURN NULL;
END
$$;
CREATE TRIGGER evidences_dod_evaluate
  AFTER INSERT OR UPDATE OF definition_of_done, script, check_id, component_id, config_id, config_change_id, config_analysis_id
  ON evidences FOR EACH ROW
  WHEN (NEW.definition_of_done AND NEW.type <> 'comment')
  EXECUTE FUNCTION evidences_dod_evaluate();
