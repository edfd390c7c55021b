/**
 * The notification vocabulary of seed 002 sections 3 and 9: send statuses, rule events, repeat
 * intervals, the silence resource kinds. The server engine (server/src/notifications) speaks the
 * same words; these lists only decide what the screens offer and how they label it.
 */

export const SEND_STATUSES = ['sent', 'error', 'pending', 'cancelled', 'repeat-interval', 'silenced'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/** repeat-interval is "shown as Repeated" (seed 002 section 3). */
export const SEND_STATUS_LABELS: Record<SendStatus, string> = {
  sent: 'Sent',
  error: 'Error',
  pending: 'Pending',
  cancelled: 'Cancelled',
  'repeat-interval': 'Repeated',
  silenced: 'Silenced',
};

/** The resource types a send is about (the send history's resource_type). */
export const SEND_RESOURCE_TYPES = ['check', 'component', 'config', 'canary', 'playbook_run'] as const;
export const RESOURCE_TYPE_LABELS: Record<string, string> = {
  check: 'Check',
  component: 'Component',
  config: 'Catalog',
  canary: 'Canary',
  playbook_run: 'Playbook run',
  incident: 'Incident',
};

/** Repeat intervals (seed 002 section 3): the same event about the same resource is not sent again within it. */
export const REPEAT_INTERVALS = ['1h', '2h', '3h', '6h', '1d', '1w', '1m'] as const;
export const REPEAT_INTERVAL_LABELS: Record<string, string> = {
  '1h': '1 hour',
  '2h': '2 hours',
  '3h': '3 hours',
  '6h': '6 hours',
  '1d': '1 day',
  '1w': '1 week',
  '1m': '1 month',
};

/** The one resource a silence covers (seed 002 section 3: Catalog, Component, Check or Canary). */
export const SILENCE_KINDS = [
  { kind: 'config', label: 'Catalog', column: 'config_id', table: 'config_items' },
  { kind: 'component', label: 'Component', column: 'component_id', table: 'components' },
  { kind: 'check', label: 'Check', column: 'check_id', table: 'checks' },
  { kind: 'canary', label: 'Canary', column: 'canary_id', table: 'canaries' },
] as const;
export type SilenceKind = (typeof SILENCE_KINDS)[number]['kind'];

/** Rules and silences are edited in the console only when they were made there (seed 002 section 4). */
export const isUiSource = (source: string | null | undefined) => !source || source === 'UI';
