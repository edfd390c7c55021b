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

CREATE OR REPLACE VIEW notification_send_history_summary AS
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
