/**
 * The shapes the health area reads (seed 000 section 3 "Check", "Check status history entry").
 * The summary feed comes from GET /api/canary/api/summary; history rows from /api/db/check_statuses.
 */

type CheckHealth = 'healthy' | 'unhealthy';

interface CheckUptime {
  passed: number;
  failed: number;
  last_pass?: string | null;
  last_fail?: string | null;
}

interface CheckLatency {
  p95?: number | null;
  p97?: number | null;
  p99?: number | null;
  rolling1h?: number | null;
}

export interface CheckSummary {
  id: string;
  name: string;
  description?: string | null;
  namespace?: string | null;
  endpoint?: string | null;
  icon?: string | null;
  type: string;
  labels: Record<string, string>;
  canary_id: string;
  canary_name?: string | null;
  agent_id?: string | null;
  /** the agent's name when the feed joins it */
  agent?: { id?: string; name?: string } | null;
  severity?: string | null;
  /** null before the first run */
  status: CheckHealth | null;
  uptime: CheckUptime;
  latency: CheckLatency;
  last_runtime?: string | null;
  last_transition_time?: string | null;
  next_runtime?: string | null;
}

/** One run (seed: time, duration (ms), status, message, error). status is true when healthy. */
export interface CheckStatus {
  check_id?: string;
  time: string;
  duration: number;
  status: boolean;
  message?: string | null;
  error?: string | null;
}

/** A point of the Health Overview chart. */
export interface GraphPoint {
  time: string;
  /** share of passing runs in the bucket, 0..1 (1 for a single passing run) */
  passed: number;
  failed: number;
  duration: number;
}

function num(v: unknown): number {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

function optionalNum(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

function record(v: unknown): Record<string, unknown> {
  const parsed = parseJson(v);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function labelMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(record(v))) {
    if (val !== null && val !== undefined) out[k] = String(val);
  }
  return out;
}

function health(v: unknown): CheckHealth | null {
  if (v === 'healthy' || v === true) return 'healthy';
  if (v === 'unhealthy' || v === false) return 'unhealthy';
  return null;
}

/**
 * One summary row as the client uses it. Tolerant on purpose: jsonb columns may arrive as text
 * and numbers as strings (percentiles), so every consumer sees the same types.
 */
export function normaliseCheckSummary(raw: Record<string, unknown>): CheckSummary {
  const uptime = record(raw.uptime);
  const latency = record(raw.latency);
  const agent = record(raw.agent);
  return {
    ...(raw as unknown as CheckSummary),
    id: String(raw.id),
    name: String(raw.name ?? ''),
    type: String(raw.type ?? ''),
    canary_id: String(raw.canary_id ?? ''),
    labels: labelMap(raw.labels),
    status: health(raw.status),
    agent: Object.keys(agent).length ? (agent as CheckSummary['agent']) : null,
    uptime: {
      passed: num(uptime.passed),
      failed: num(uptime.failed),
      last_pass: (uptime.last_pass as string | null | undefined) ?? null,
      last_fail: (uptime.last_fail as string | null | undefined) ?? null,
    },
    latency: {
      p95: optionalNum(latency.p95),
      p97: optionalNum(latency.p97),
      p99: optionalNum(latency.p99),
      rolling1h: optionalNum(latency.rolling1h),
    },
  };
}

/** The summary route answers `{checks_summary: [...]}` (canary-checker's shape) or a bare list. */
export function summaryRows(body: unknown): CheckSummary[] {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object'
      ? ((body as Record<string, unknown>).checks_summary ?? (body as Record<string, unknown>).checks ?? [])
      : [];
  return (Array.isArray(list) ? list : [])
    .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && 'id' in r)
    .map(normaliseCheckSummary);
}
