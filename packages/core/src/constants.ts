/** Business constants from the specification (seed 000 section 9), shared by server and web. */

export const PAGE_SIZES = [5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000] as const;
export const DEFAULT_PAGE_SIZE = 50;
export const AGENT_PAGE_SIZES = [50, 100, 200] as const;
export const SETTINGS_LIST_LIMIT = 100;

export const TIME_RANGE_OPTIONS = [
  '15m',
  '1h',
  '2h',
  '3h',
  '6h',
  '12h',
  '1d',
  '2d',
  '3d',
  '1w',
  '2w',
  '3w',
  '1mo',
  '2mo',
  '3mo',
  '6mo',
  '1y',
  '2y',
  '3y',
  '5y',
] as const;

export const INCIDENT_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technicalDebt',
  'reliability',
] as const;
export const SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'] as const;
export const HYPOTHESIS_STATUSES = ['proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven'] as const;

export const ROLES = ['admin', 'editor', 'commander', 'responder', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The local agent: this server's own engines, the nil-UUID row of `agents` (seed 002: 'A zero
 * agent id means no agent'). Resources of this agent run here; those of other agents run there.
 */
export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
export const AGENT_ONLINE_THRESHOLD_SECONDS = 61;
export const CANARY_GRAPH_POINTS = 300;
export const FRONTEND_VERSION = '1.0.801';
