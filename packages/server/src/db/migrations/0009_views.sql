-- 0009: the read views the UI queries through /api/db, with the names the seeds use.
-- Views are read-only through the API; writes go to the underlying tables.

-- ---------------------------------------------------------------------------------------------
-- Shared helpers
-- ---------------------------------------------------------------------------------------------

-- The display name of the resource a job_history / notification row refers to (by id, whatever
-- its table). NULL when the id is not a uuid or matches nothing.
CREATE OR REPLACE FUNCTION resource_name(resource_id text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN resource_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN COALESCE(
    (SELECT name FROM canaries WHERE id = resource_id::uuid),
    (SELECT name FROM checks WHERE id = resource_id::uuid),
    (SELECT name FROM topologies WHERE id = resource_id::uuid),
    (SELECT name FROM config_scrapers WHERE id = resource_id::uuid),
    (SELECT name FROM logging_backends WHERE id = resource_id::uuid),
    (SELECT coalesce(name, title) FROM notifications WHERE id = resource_id::uuid),
    (SELECT name FROM playbooks WHERE id = resource_id::uuid),
    (SELECT name FROM teams WHERE id = resource_id::uuid),
    (SELECT name FROM incident_rules WHERE id = resource_id::uuid),
    (SELECT name FROM components WHERE id = resource_id::uuid),
    (SELECT name FROM config_items WHERE id = resource_id::uuid),
    (SELECT name FROM agents WHERE id = resource_id::uuid)
  ) END
$$;

-- ---------------------------------------------------------------------------------------------
-- Agents
-- ---------------------------------------------------------------------------------------------

-- agents_summary: the Agents list: each agent with counts of what it pushed.
CREATE VIEW agents_summary AS
SELECT a.id, a.name, a.description, a.hostname, a.version, a.person_id, a.properties, a.spec,
  a.last_seen, a.last_received, a.cleanup, a.created_by, a.created_at, a.updated_at, a.deleted_at,
  (SELECT count(*) FROM config_items ci WHERE ci.agent_id = a.id AND ci.deleted_at IS NULL) AS config_count,
  (SELECT count(*) FROM checks c WHERE c.agent_id = a.id AND c.deleted_at IS NULL) AS checks_count,
  (SELECT count(*) FROM config_scrapers s WHERE s.agent_id = a.id AND s.deleted_at IS NULL) AS config_scrapper_count,
  (SELECT count(*) FROM playbook_runs r WHERE r.agent_id = a.id) AS playbook_runs_count
FROM agents a;

-- ---------------------------------------------------------------------------------------------
-- Health
-- ---------------------------------------------------------------------------------------------

-- checks_summary: the health summary feed: every live check with its canary, uptime
-- {passed, failed, last_pass, last_fail} and latency {p95, p97, p99, rolling1h} over 24 hours.
CREATE VIEW checks_summary AS
SELECT c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
  c.name, c.namespace, c.description, c.type, c.icon, c.endpoint, c.owner, c.labels, c.severity, c.status,
  c.last_runtime, c.next_runtime, c.last_transition_time, c.silenced_at, c.created_at, c.updated_at, c.deleted_at,
  jsonb_build_object('passed', coalesce(s.passed, 0), 'failed', coalesce(s.failed, 0),
    'last_pass', s.last_pass, 'last_fail', s.last_fail) AS uptime,
  jsonb_build_object('p95', s.p95, 'p97', s.p97, 'p99', s.p99, 'rolling1h', s.rolling1h) AS latency
FROM checks c
JOIN canaries ca ON ca.id = c.canary_id
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE cs.status) AS passed,
    count(*) FILTER (WHERE NOT cs.status) AS failed,
    max(cs.time) FILTER (WHERE cs.status) AS last_pass,
    max(cs.time) FILTER (WHERE NOT cs.status) AS last_fail,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY cs.duration) AS p95,
    percentile_disc(0.97) WITHIN GROUP (ORDER BY cs.duration) AS p97,
    percentile_disc(0.99) WITHIN GROUP (ORDER BY cs.duration) AS p99,
    round(avg(cs.duration) FILTER (WHERE cs.time > now() - interval '1 hour'))::integer AS rolling1h
  FROM check_statuses cs
  WHERE cs.check_id = c.id AND cs.time > now() - interval '24 hours'
) s ON true
WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL;

-- check_summary_for_config: the Checks tab of a config: its related checks' summaries.
CREATE VIEW check_summary_for_config AS
SELECT r.config_id, cs.*
FROM check_config_relationships r
JOIN checks_summary cs ON cs.id = r.check_id
WHERE r.deleted_at IS NULL;

-- checks_by_component: the Checks panel of a component.
CREATE VIEW checks_by_component AS
SELECT r.component_id, cs.*
FROM check_component_relationships r
JOIN checks_summary cs ON cs.id = r.check_id
WHERE r.deleted_at IS NULL;

-- check_labels: distinct label key/value pairs of live checks (Filter by Label).
CREATE VIEW check_labels AS
SELECT DISTINCT l.key, l.value
FROM checks c, jsonb_each_text(coalesce(c.labels, '{}'::jsonb)) l
WHERE c.deleted_at IS NULL;

-- ---------------------------------------------------------------------------------------------
-- Settings resources with the status of their latest job (Job Status, Last Run, Last Failed)
-- ---------------------------------------------------------------------------------------------

-- canaries_with_status: Health Check settings list.
CREATE VIEW canaries_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM canaries t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- topologies_with_status: Topology settings list.
CREATE VIEW topologies_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name, 'description', a.description) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM topologies t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- config_scrapers_with_status: Catalog Scraper settings list and /catalog/scrapers.
CREATE VIEW config_scrapers_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM config_scrapers t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- teams_with_status: Teams settings list.
CREATE VIEW teams_with_status AS
SELECT t.*,
  (SELECT count(*) FROM team_members m WHERE m.team_id = t.id) AS member_count,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM teams t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- logging_backends_with_status: Log Backends settings list.
CREATE VIEW logging_backends_with_status AS
SELECT t.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = t.id::text AND f.status = 'FAILED') AS job_last_failed
FROM logging_backends t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = t.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- integrations_with_status: the Integrations list: scrapers, topologies and logging backends.
CREATE VIEW integrations_with_status AS
SELECT i.*,
  (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = i.agent_id) AS agent,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start
FROM (
  SELECT id, name, namespace, source, 'scrapers'::text AS integration_type, agent_id, labels, description,
    created_by, created_at, updated_at, deleted_at FROM config_scrapers
  UNION ALL
  SELECT id, name, namespace, source, 'topologies', agent_id, labels, NULL,
    created_by, created_at, updated_at, deleted_at FROM topologies
  UNION ALL
  SELECT id, name, namespace, source, 'logging_backends', agent_id, labels, NULL,
    created_by, created_at, updated_at, deleted_at FROM logging_backends
) i
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = i.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- ---------------------------------------------------------------------------------------------
-- Job history and event queue
-- ---------------------------------------------------------------------------------------------

-- job_histories: the Jobs History list: job_history with the resource's name.
CREATE VIEW job_histories AS
SELECT h.id, h.name, h.resource_type, h.resource_id, resource_name(h.resource_id) AS resource_name,
  h.agent_id, h.hostname, h.status, h.success_count, h.error_count, h.duration_millis, h.details,
  h.time_start, h.time_end, h.created_at
FROM job_history h;

-- job_history_names: distinct job names (Job Name filter).
CREATE VIEW job_history_names AS
SELECT DISTINCT name FROM job_history;

-- event_queue_summary: the Event Queue page: per event name, pending and dead-lettered counts.
CREATE VIEW event_queue_summary AS
SELECT name,
  count(*) FILTER (WHERE status = 'pending') AS pending,
  count(*) FILTER (WHERE status = 'failed') AS failed,
  round(avg(attempts), 2) AS average_attempts,
  min(last_attempt) FILTER (WHERE error IS NOT NULL) AS first_failure,
  max(last_attempt) FILTER (WHERE error IS NOT NULL) AS last_failure,
  mode() WITHIN GROUP (ORDER BY error) FILTER (WHERE error IS NOT NULL) AS most_common_error
FROM event_queue
GROUP BY name;

-- ---------------------------------------------------------------------------------------------
-- Catalog
-- ---------------------------------------------------------------------------------------------

-- configs: the catalog list: config items without their body, with 30-day change counts and
-- open insight counts per analysis type.
CREATE VIEW configs AS
SELECT ci.id, ci.scraper_id, ci.agent_id, ci.parent_id, ci.path, ci.external_id, ci.type, ci.config_class,
  ci.name, ci.tags ->> 'namespace' AS namespace, ci.description, ci.source, ci.status, ci.health, ci.ready,
  ci.labels, ci.tags, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
  ci.last_scraped_time, ci.delete_reason, ci.created_by, ci.created_at, ci.updated_at, ci.deleted_at,
  (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id AND cc.created_at > now() - interval '30 days') AS changes,
  (SELECT jsonb_object_agg(a.analysis_type, a.n) FROM (
     SELECT ca.analysis_type, count(*) AS n FROM config_analysis ca
     WHERE ca.config_id = ci.id AND ca.status = 'open' GROUP BY ca.analysis_type) a) AS analysis
FROM config_items ci;

-- config_detail: one config item with its body and the tab counts (summary).
CREATE VIEW config_detail AS
SELECT ci.*,
  jsonb_build_object(
    'changes', (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id),
    'analysis', (SELECT count(*) FROM config_analysis ca WHERE ca.config_id = ci.id AND ca.status = 'open'),
    'relationships', (SELECT count(*) FROM config_relationships r
                      WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL),
    'playbook_runs', (SELECT count(*) FROM playbook_runs pr WHERE pr.config_id = ci.id),
    'checks', (SELECT count(*) FROM check_config_relationships k WHERE k.config_id = ci.id AND k.deleted_at IS NULL)
  ) AS summary
FROM config_items ci;

-- config_summary: the catalog landing page: live items grouped by class and type, with
-- health counts, open insights per type, 30-day changes and cost.
CREATE VIEW config_summary AS
SELECT ci.config_class, ci.type,
  count(*) AS count,
  jsonb_strip_nulls(jsonb_build_object(
    'healthy', nullif(count(*) FILTER (WHERE ci.health = 'healthy'), 0),
    'unhealthy', nullif(count(*) FILTER (WHERE ci.health = 'unhealthy'), 0),
    'warning', nullif(count(*) FILTER (WHERE ci.health = 'warning'), 0),
    'unknown', nullif(count(*) FILTER (WHERE ci.health = 'unknown' OR ci.health IS NULL), 0))) AS health,
  (SELECT jsonb_object_agg(a.analysis_type, a.n) FROM (
     SELECT ca.analysis_type, count(*) AS n FROM config_analysis ca JOIN config_items x ON x.id = ca.config_id
     WHERE x.type = ci.type AND x.config_class = ci.config_class AND x.deleted_at IS NULL AND ca.status = 'open'
     GROUP BY ca.analysis_type) a) AS analysis,
  coalesce(sum(ch.n), 0) AS changes,
  sum(ci.cost_per_minute) AS cost_per_minute,
  sum(ci.cost_total_1d) AS cost_total_1d,
  sum(ci.cost_total_7d) AS cost_total_7d,
  sum(ci.cost_total_30d) AS cost_total_30d
FROM config_items ci
LEFT JOIN (
  SELECT config_id, count(*) AS n FROM config_changes
  WHERE created_at > now() - interval '30 days' GROUP BY config_id
) ch ON ch.config_id = ci.id
WHERE ci.deleted_at IS NULL
GROUP BY ci.config_class, ci.type;

-- config_names: a light list for pickers and lookups.
CREATE VIEW config_names AS
SELECT id, name, type, config_class, tags, health, status, agent_id, deleted_at FROM config_items;

-- Distinct value lists for the catalog filters.
CREATE VIEW config_types AS
SELECT DISTINCT type, config_class FROM config_items WHERE deleted_at IS NULL;

CREATE VIEW config_classes AS
SELECT DISTINCT config_class FROM config_items WHERE deleted_at IS NULL;

CREATE VIEW config_statuses AS
SELECT DISTINCT status FROM config_items WHERE deleted_at IS NULL AND status IS NOT NULL;

CREATE VIEW config_tags AS
SELECT DISTINCT t.key, t.value
FROM config_items ci, jsonb_each_text(coalesce(ci.tags, '{}'::jsonb)) t
WHERE ci.deleted_at IS NULL;

CREATE VIEW config_labels AS
SELECT DISTINCT l.key, l.value
FROM config_items ci, jsonb_each_text(coalesce(ci.labels, '{}'::jsonb)) l
WHERE ci.deleted_at IS NULL;

CREATE VIEW change_types AS
SELECT DISTINCT change_type FROM config_changes;

CREATE VIEW analysis_types AS
SELECT DISTINCT analysis_type FROM config_analysis;

CREATE VIEW analyzers AS
SELECT DISTINCT analyzer, analysis_type FROM config_analysis;

-- catalog_changes: the Changes list: each change with its config's name, type, class, tags
-- and deleted_at (for "hide deleted").
CREATE VIEW catalog_changes AS
SELECT cc.id, cc.config_id, cc.external_change_id, cc.change_type, cc.severity, cc.source, cc.summary,
  cc.details, cc.patches, cc.diff, cc.count, cc.first_observed, cc.created_by, cc.external_created_by, cc.created_at,
  ci.name, ci.type, ci.config_class, ci.tags, ci.agent_id, ci.deleted_at,
  jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class,
    'deleted_at', ci.deleted_at) AS config
FROM config_changes cc
JOIN config_items ci ON ci.id = cc.config_id;

-- config_changes_summary: change counts per config item (1, 7 and 30 days, all time).
CREATE VIEW config_changes_summary AS
SELECT cc.config_id,
  count(*) AS total,
  count(*) FILTER (WHERE cc.created_at > now() - interval '1 day') AS last_1d,
  count(*) FILTER (WHERE cc.created_at > now() - interval '7 days') AS last_7d,
  count(*) FILTER (WHERE cc.created_at > now() - interval '30 days') AS last_30d,
  max(cc.created_at) AS last_change_at
FROM config_changes cc
GROUP BY cc.config_id;

-- config_changes_by_type: change counts per change type and severity over 30 days.
CREATE VIEW config_changes_by_type AS
SELECT cc.change_type, cc.severity, count(*) AS count, max(cc.created_at) AS last_seen
FROM config_changes cc
WHERE cc.created_at > now() - interval '30 days'
GROUP BY cc.change_type, cc.severity;

-- config_analysis_items: the Insights list: each insight with its config.
CREATE VIEW config_analysis_items AS
SELECT ca.id, ca.config_id, ca.scraper_id, ca.analyzer, ca.analysis_type, ca.severity, ca.status, ca.message,
  ca.summary, ca.analysis, ca.source, ca.first_observed, ca.last_observed, ca.created_at, ca.updated_at,
  ci.name AS config_name, ci.type AS config_type, ci.config_class, ci.deleted_at AS config_deleted_at,
  jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class) AS config
FROM config_analysis ca
JOIN config_items ci ON ci.id = ca.config_id;

-- config_relationships_items: each live relationship with both ends' names and types.
CREATE VIEW config_relationships_items AS
SELECT r.config_id, r.related_id, r.relation, r.selector_id, r.created_at, r.deleted_at,
  a.name AS config_name, a.type AS config_type, b.name AS related_name, b.type AS related_type,
  b.health AS related_health, b.status AS related_status
FROM config_relationships r
JOIN config_items a ON a.id = r.config_id
JOIN config_items b ON b.id = r.related_id;

-- ---------------------------------------------------------------------------------------------
-- Topology
-- ---------------------------------------------------------------------------------------------

-- component_names: a light list of live components for pickers.
CREATE VIEW component_names AS
SELECT id, name, title, type, icon, status, parent_id, path, topology_id, agent_id, external_id, created_at, updated_at
FROM components WHERE deleted_at IS NULL;

-- components_with_logs: live components that declare log sources (the Logs page).
CREATE VIEW components_with_logs AS
SELECT id, name, title, type, icon, agent_id, logs
FROM components
WHERE deleted_at IS NULL AND jsonb_typeof(logs) = 'array' AND jsonb_array_length(logs) > 0;

-- component_labels: distinct label key/value pairs of live components.
CREATE VIEW component_labels AS
SELECT DISTINCT l.key, l.value
FROM components c, jsonb_each_text(coalesce(c.labels, '{}'::jsonb)) l
WHERE c.deleted_at IS NULL;

-- component_types: distinct component types.
CREATE VIEW component_types AS
SELECT DISTINCT type FROM components WHERE deleted_at IS NULL AND type IS NOT NULL;

-- ---------------------------------------------------------------------------------------------
-- Incidents
-- ---------------------------------------------------------------------------------------------

-- incident_summary: the incident list row: incident with commander, communicator, responders
-- (people and teams) and counts.
CREATE VIEW incident_summary AS
SELECT i.id, i.incident_id, i.title, i.description, i.type, i.status, i.severity,
  i.commander_id, i.communicator_id, i.incident_rule_id, i.acknowledged, i.resolved, i.closed,
  i.created_by, i.created_at, i.updated_at,
  (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = i.commander_id) AS commander,
  (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = i.communicator_id) AS communicator,
  coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', coalesce(p.id, t.id), 'name', coalesce(p.name, t.name),
      'avatar', p.avatar, 'icon', t.icon, 'type', r.type) ORDER BY r.created_at)
    FROM responders r
    LEFT JOIN people p ON p.id = r.person_id
    LEFT JOIN teams t ON t.id = r.team_id
    WHERE r.incident_id = i.id AND r.deleted_at IS NULL), '[]'::jsonb) AS responders,
  coalesce((
    SELECT jsonb_agg(DISTINCT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar))
    FROM comments c JOIN people p ON p.id = c.created_by
    WHERE c.incident_id = i.id), '[]'::jsonb) AS commenters,
  (SELECT count(*) FROM hypotheses h WHERE h.incident_id = i.id) AS hypotheses_count,
  (SELECT count(*) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = i.id) AS evidences_count,
  (SELECT count(*) FROM comments c WHERE c.incident_id = i.id) AS comments_count
FROM incidents i;

-- incidents_by_component: incidents with evidence on a component.
CREATE VIEW incidents_by_component AS
SELECT DISTINCT e.component_id, i.id, i.incident_id, i.title, i.type, i.status, i.severity, i.created_at, i.updated_at
FROM incidents i
JOIN hypotheses h ON h.incident_id = i.id
JOIN evidences e ON e.hypothesis_id = h.id
WHERE e.component_id IS NOT NULL;

-- incidents_by_config: incidents with evidence on a config item.
CREATE VIEW incidents_by_config AS
SELECT DISTINCT e.config_id, i.id, i.incident_id, i.title, i.type, i.status, i.severity, i.created_at, i.updated_at
FROM incidents i
JOIN hypotheses h ON h.incident_id = i.id
JOIN evidences e ON e.hypothesis_id = h.id
WHERE e.config_id IS NOT NULL;

-- ---------------------------------------------------------------------------------------------
-- Playbooks
-- ---------------------------------------------------------------------------------------------

-- playbook_names: live playbooks for pickers and the Playbooks dropdown.
CREATE VIEW playbook_names AS
SELECT id, name, namespace, title, description, icon, category, source, created_at, updated_at
FROM playbooks WHERE deleted_at IS NULL;

-- playbook_runs_summary: runs with their playbook's name/title/icon and the resource's name.
CREATE VIEW playbook_runs_summary AS
SELECT r.id, r.playbook_id, r.parent_id, r.agent_id, r.status, r.parameters, r.component_id, r.config_id, r.check_id,
  r.trigger_source, r.error, r.scheduled_time, r.start_time, r.end_time, r.created_by, r.created_at, r.updated_at,
  p.name AS playbook_name, p.title AS playbook_title, p.icon AS playbook_icon, p.category AS playbook_category,
  CASE WHEN r.end_time IS NOT NULL AND r.start_time IS NOT NULL
    THEN (extract(epoch FROM r.end_time - r.start_time) * 1000)::bigint END AS duration_millis,
  coalesce((SELECT name FROM components WHERE id = r.component_id),
           (SELECT name FROM config_items WHERE id = r.config_id),
           (SELECT name FROM checks WHERE id = r.check_id)) AS resource_name
FROM playbook_runs r
JOIN playbooks p ON p.id = r.playbook_id;

-- ---------------------------------------------------------------------------------------------
-- Notifications
-- ---------------------------------------------------------------------------------------------

-- notifications_summary: rules with their send statistics (Notification rules table).
CREATE VIEW notifications_summary AS
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
CREATE VIEW notifications_with_status AS
SELECT ns.*,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_start AS last_runtime,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = ns.id::text AND f.status = 'FAILED') AS job_last_failed
FROM notifications_summary ns
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_id = ns.id::text ORDER BY h.created_at DESC LIMIT 1
) j ON true;

-- notification_send_history_summary: send history with the resource and recipient resolved.
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
  END AS resource,
  (SELECT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar) FROM people p WHERE p.id = h.person_id) AS person,
  (SELECT coalesce(n.name, n.title) FROM notifications n WHERE n.id = h.notification_id) AS notification_name
FROM notification_send_history h;
