-- Notifications: rules with their send statistics, the send history.
-- Applied after the versioned migrations whenever this file changes (db/README.md): every
-- statement can run again.

-- notifications_summary: rules with their send statistics (Notification rules table).
CREATE OR REPLACE VIEW notifications_summary AS
SELECT n.*,
  coalesce(s.pending, 0) AS pending, coalesce(s.failed, 0) AS failed, coalesce(s.sent, 0) AS sent,
  s.avg_duration_ms, s.most_common_error, s.last_sent_at
FROM notifications n
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE h.status = 'pending') AS pending,
    count(*) FILTER (WHERE h.status = 'error') AS failed,
    count(*) FILTER (WHERE h.status = 'sent') AS sent,
    round(avg(h.duration_millis) FILTER (WHERE h.status = 'sent'))::integer AS avg_duration_ms,
    mode() WITHIN GROUP (ORDER BY h.error) FILTER (WHERE h.error IS NOT NULL) AS most_common_error,
    max(h.created_at) FILTER (WHERE h.status = 'sent') AS last_sent_at
  FROM notification_send_history h WHERE h.notification_id = n.id
) s ON true;

-- notifications_with_status: the notifications settings list: rules with send statistics and
-- their latest job.
CREATE OR REPLACE VIEW notifications_with_status AS
SELECT ns.*,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = ns.id::text AND f.status = 'FAILED') AS job_last_failed
FROM notifications_summary ns
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = ns.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- the send history with its resource, person and rule name (columns of h.* grew in 0240: dropped first)
DROP VIEW IF EXISTS notification_send_history_summary;
CREATE VIEW notification_send_history_summary AS
SELECT h.*,
  CASE h.resource_type
    WHEN 'config' THEN (SELECT jsonb_build_object('id', x.id, 'name', x.name, 'type', x.type, 'config_class', x.config_class)
                        FROM config_items x WHERE x.id = h.resource_id)
    WHEN 'component' THEN (SELECT jsonb_build_object('id', x.id, 'name', x.name, 'type', x.type, 'icon', x.icon)
                           FROM components x WHERE x.id = h.resource_id)
    WHEN 'check' THEN (SELECT jsonb_build_object('id', x.id, 'name', x.name, 'type', x.type, 'icon', x.icon)
                       FROM checks x WHERE x.id = h.resource_id)
    WHEN 'canary' THEN (SELECT jsonb_build_object('id', x.id, 'name', x.name)
                        FROM canaries x WHERE x.id = h.resource_id)
    WHEN 'playbook_run' THEN (SELECT jsonb_build_object('id', x.id, 'name', p.name)
                              FROM playbook_runs x JOIN playbooks p ON p.id = x.playbook_id WHERE x.id = h.resource_id)
    WHEN 'incident' THEN (SELECT jsonb_build_object('id', x.id, 'name', x.title, 'incident_id', x.incident_id, 'type', x.type)
                          FROM incidents x WHERE x.id = h.resource_id)
  END AS resource,
  (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = h.person_id) AS person,
  (SELECT coalesce(n.name, n.title) FROM notifications n WHERE n.id = h.notification_id) AS notification_name
FROM notification_send_history h;

-- notification_silence_for(kind, id, at): the active silence that covers a resource, or null
-- (notifications/README.md "Silences"). A silence names one config, component, check or canary;
-- a canary's silence covers its checks; `recursive` extends a component's or a config's silence
-- to its descendants (parent_id chain, at most 50 levels).
CREATE OR REPLACE FUNCTION notification_silence_for(kind text, rid uuid, at timestamptz DEFAULT now())
RETURNS uuid LANGUAGE sql STABLE AS $$
  WITH RECURSIVE comp(id, depth) AS (
    SELECT rid, 0 WHERE kind = 'component'
    UNION ALL
    SELECT c.parent_id, comp.depth + 1 FROM components c JOIN comp ON c.id = comp.id
    WHERE c.parent_id IS NOT NULL AND comp.depth < 50
  ), cfg(id, depth) AS (
    SELECT rid, 0 WHERE kind = 'config'
    UNION ALL
    SELECT c.parent_id, cfg.depth + 1 FROM config_items c JOIN cfg ON c.id = cfg.id
    WHERE c.parent_id IS NOT NULL AND cfg.depth < 50
  )
  SELECT s.id FROM notification_silences s
  WHERE s.deleted_at IS NULL AND s."from" <= at AND s.until > at AND (
       (s.component_id IN (SELECT id FROM comp) AND (s.recursive OR s.component_id = rid))
    OR (s.config_id IN (SELECT id FROM cfg) AND (s.recursive OR s.config_id = rid))
    OR (kind = 'check' AND s.check_id = rid)
    OR (kind = 'check' AND s.canary_id = (SELECT k.canary_id FROM checks k WHERE k.id = rid))
    OR (kind = 'canary' AND s.canary_id = rid))
  ORDER BY s.created_at LIMIT 1
$$;

-- A silence from a GitOps source or a CRD is changed there, as rules are (settings/sql/30-settings.sql
-- guards `notifications`): a person's UPDATE or DELETE through /api/db is refused with 409.
CREATE OR REPLACE FUNCTION refuse_foreign_silence_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 AND request_person_id() IS NOT NULL AND coalesce(OLD.source, '') NOT IN ('', 'UI') THEN
    RAISE EXCEPTION 'Notification silence "%" comes from % and can only be changed there',
      coalesce(OLD.description, OLD.id::text), OLD.source
      USING ERRCODE = 'PT409', HINT = 'Only resources whose source is UI are edited in the console';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

DROP TRIGGER IF EXISTS notification_silences_source_guard ON notification_silences;
CREATE TRIGGER notification_silences_source_guard BEFORE UPDATE OR DELETE ON notification_silences
  FOR EACH ROW EXECUTE FUNCTION refuse_foreign_silence_write();
