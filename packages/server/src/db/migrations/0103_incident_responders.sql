-- 0103: incident responders (seed 001 sections 3, 5, 7; server incidents/README.md):
--   * a team responder is checked against the team's spec.responder_clients.<type>: fixed
--     `values` win over what the client sent, empty fields are filled from the `defaults`
--     templates, then every field of the type is required ('Please provide valid value', 400);
--   * a new team responder is dispatched through the event queue ('incident.responder.dispatch',
--     published by the insert's own trigger, so a responder and its dispatch are never split);
--     the outcome lands in dispatch_status / dispatch_error / external_id / external_url;
--   * the identity of a responder (incident, creator, team, person, type, properties) and the
--     dispatch outcome cannot be rewritten by clients;
--   * timeline: resolving an incident signs its responders off, closing it closes them, reopening
--     it clears both.
-- Bulk loaders that turn the changelog off (watchdeck.incident_history = 'off', the demo seed)
-- write history, not live actions: their responders are not dispatched.

ALTER TABLE responders
  ADD COLUMN dispatch_status text CHECK (dispatch_status IN ('pending', 'sent', 'logged', 'failed')),
  ADD COLUMN dispatch_error  text,
  ADD COLUMN dispatched_at   timestamptz,
  ADD COLUMN external_url    text;
CREATE INDEX responders_dispatch_status_idx ON responders (dispatch_status) WHERE dispatch_status IS NOT NULL;

-- The ticket systems of the responder types (core RESPONDER_CONNECTION_TYPES): jira, service_now
-- and ms_planner were allowed already; case_webhook serves the support-case systems.
ALTER TABLE connections DROP CONSTRAINT connections_type_check;
ALTER TABLE connections ADD CONSTRAINT connections_type_check CHECK (type IN (
  'postgres', 'mysql', 'sql_server', 'http', 'prometheus', 'elasticsearch', 'mongo', 'ldap', 'redis',
  'windows', 'google_cloud', 'gcs', 'sftp', 'aws', 's3', 'kubernetes', 'azure_devops', 'azure', 'github',
  'gitlab', 'restic', 'smb', 'jmeter', 'dynatrace',
  'discord', 'email', 'google_chat', 'ifttt', 'mattermost', 'matrix', 'ntfy', 'opsgenie', 'pushbullet',
  'pushover', 'rocketchat', 'slack', 'teams', 'telegram', 'zulip_chat', 'generic_webhook',
  'folder', 'git', 'jira', 'ms_planner', 'service_now', 'case_webhook'));

-- The functions, triggers and views of this change are kept in incidents/sql/50-incidents.sql.
