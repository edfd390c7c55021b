/** Rows of the notification tables and views as /api/db returns them (seed 002 section 3). */

export interface PersonRef {
  id: string;
  name: string | null;
  avatar?: string | null;
  email?: string | null;
}

export interface TeamRef {
  id: string;
  name: string;
}

/** A send of notification_send_history_summary (its resource, person and rule name resolved). */
export interface SendHistoryRow {
  id: string;
  notification_id: string;
  notification_name: string | null;
  status: string;
  source_event: string;
  resource_type: string | null;
  resource_id: string | null;
  resource: { id: string; name: string | null; type?: string | null; icon?: string | null } | null;
  person: PersonRef | null;
  person_id: string | null;
  team_id: string | null;
  silenced_by: string | null;
  body: string | null;
  error: string | null;
  duration_millis: number | null;
  count: number;
  first_observed: string;
  created_at: string;
  updated_at: string;
  /** added by the delivery engine (migration 0240): the rendered title and who it went to */
  title?: string | null;
  recipient?: string | null;
}

/** One item of custom_services: a connection by reference (seed: "first item has connection"). */
export interface CustomService {
  name?: string;
  connection?: string;
  url?: string;
  properties?: Record<string, unknown>;
}

/** A rule of notifications_summary, with the send counters. */
export interface RuleRow {
  id: string;
  name: string | null;
  namespace: string;
  title: string | null;
  events: string[];
  filter: string | null;
  template: string | null;
  properties: Record<string, unknown> | null;
  repeat_interval: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
  source: string | null;
  error: string | null;
  error_at: string | null;
  pending: number;
  failed: number;
  sent: number;
  avg_duration_ms: number | null;
  most_common_error: string | null;
  last_sent_at: string | null;
  created_at: string;
  updated_at: string;
  person: PersonRef | null;
  team: TeamRef | null;
  created_by: PersonRef | null;
}

export interface SilenceRow {
  id: string;
  namespace: string;
  description: string | null;
  from: string;
  until: string;
  recursive: boolean;
  source: string | null;
  canary_id: string | null;
  check_id: string | null;
  component_id: string | null;
  config_id: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  created_by: PersonRef | null;
  canary: { id: string; name: string } | null;
  check: { id: string; name: string } | null;
  component: { id: string; name: string } | null;
  config: { id: string; name: string; type?: string | null } | null;
}
