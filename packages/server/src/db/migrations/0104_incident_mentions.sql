-- 0104: @mentions in incident comments (seed 001 section 5; markup `@[Display Name](<person id>)`,
-- core mentions.ts). A new comment that contains mention markup publishes
-- 'incident.comment.mentions' in its own transaction; the server parses the mentions (with core's
-- parser) and emails each mentioned person but the author. Every email is recorded in
-- notification_send_history under the built-in notification 'incident-mentions', so the
-- Notifications pages list them (resource: the incident, person: the recipient).

-- The built-in notification the mention emails are recorded under (not a rule users write: it
-- names the event it stands for and no recipients; each send names its person).
INSERT INTO notifications (id, name, namespace, title, events, source)
VALUES ('00000000-0000-0000-0000-0000000000b1', 'incident-mentions', 'default', 'Mentions in incident comments',
  ARRAY['incident.comment.mention'], 'system')
ON CONFLICT (id) DO NOTHING;

-- Send history can be about an incident.
ALTER TABLE notification_send_history DROP CONSTRAINT notification_send_history_resource_type_check;
ALTER TABLE notification_send_history ADD CONSTRAINT notification_send_history_resource_type_check
  CHECK (resource_type IN ('config', 'component', 'check', 'canary', 'playbook_run', 'incident'));

-- The functions, triggers and views of this change are kept in incidents/sql/50-incidents.sql.
