-- 0104: @mentions in incident comments (seed 001 section 5; markup `@[Display Name](<person id>)`,
-- core mentions.ts). A new comment that contains mention markup publishes
-- 'incident.comment.mentions' in its own transaction; the server parses the mentions (with core's
-- parser) and emails each mentioned person but the author. Every email is recorded in
-- notification_send_history under the built-in notification 'incident-mentions', so the
-- Notifications pages list them (resource: the incident, person: the recipient).

CREATE FUNCTION comments_mentions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_queue (name, event_id, properties)
  VALUES ('incident.comment.mentions', NEW.id::text, jsonb_build_object('comment_id', NEW.id, 'incident_id', NEW.incident_id))
  ON CONFLICT (name, event_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- The pattern only pre-filters; core's parseMentions decides what is a mention.
CREATE TRIGGER comments_mentions AFTER INSERT ON comments FOR EACH ROW
  WHEN (NEW.comment ~ '@\[[^]]+\]\([0-9a-fA-F-]{36}\)' AND incident_history_enabled())
  EXECUTE FUNCTION comments_mentions();

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
