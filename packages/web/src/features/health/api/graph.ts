import { useQuery } from '@tanstack/react-query';
import { CANARY_GRAPH_POINTS } from '@watchdeck/core';
import { apiGet } from '#web/lib/http.ts';
import type { GraphPoint } from './types.ts';
import type { HealthTimeRange } from '../lib/time-ranges.ts';

/**
 * GET /api/canary/api/graph?check=&start=&count=300: a check's runs over the range in at most
 * 300 points (seed 000 section 9 "Canary graph points 300"); the server sizes the buckets.
 */
function graphUrl(checkId: string, timeRange: HealthTimeRange): string {
  const q = new URLSearchParams({ check: checkId, start: timeRange, count: String(CANARY_GRAPH_POINTS) });
  return `/api/canary/api/graph?${q}`;
}

function toPoint(raw: unknown): GraphPoint | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const time = r.time ?? r.bucket ?? r.start;
  if (typeof time !== 'string') return undefined;
  let passed = Number(r.passed ?? NaN);
  let failed = Number(r.failed ?? NaN);
  if (Number.isNaN(passed) || Number.isNaN(failed)) {
    // a single run: status true/false (or 1/0)
    const ok = r.status === true || r.status === 1 || r.status === 'healthy';
    passed = ok ? 1 : 0;
    failed = ok ? 0 : 1;
  }
  const duration = Number(r.duration ?? r.avg_duration ?? r.latency ?? 0);
  return { time, passed, failed, duration: Number.isFinite(duration) ? duration : 0 };
}

/** Points in time order, whatever envelope the route uses ({status: [...]}, {points: [...]} or a list). */
function graphPoints(body: unknown): GraphPoint[] {
  const b = body as Record<string, unknown> | unknown[] | null;
  const list = Array.isArray(b) ? b : b && typeof b === 'object' ? (b.status ?? b.points ?? b.graph ?? []) : [];
  return (Array.isArray(list) ? list : [])
    .map(toPoint)
    .filter((p): p is GraphPoint => !!p)
    .sort((a, c) => Date.parse(a.time) - Date.parse(c.time));
}

export function useCheckGraph(checkId: string | undefined, timeRange: HealthTimeRange) {
  return useQuery({
    queryKey: ['health', 'graph', checkId, timeRange],
    queryFn: async ({ signal }) => graphPoints(await apiGet<unknown>(graphUrl(checkId!, timeRange), signal)),
    enabled: !!checkId,
  });
}
