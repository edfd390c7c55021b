import type { CheckSummary } from '../api/types.ts';

/**
 * Health colours (seed 000 section 4): degraded, missing and unhealthy are red; unknown and
 * suspended grey; warning, warn and mixed orange; anything else green.
 */
export type HealthColour = 'red' | 'grey' | 'orange' | 'green';

export function healthColour(status: string | null | undefined): HealthColour {
  const s = (status ?? 'unknown').toLowerCase();
  if (s === 'degraded' || s === 'missing' || s === 'unhealthy' || s === 'bad') return 'red';
  if (s === 'unknown' || s === 'suspended') return 'grey';
  if (s === 'warning' || s === 'warn' || s === 'mixed') return 'orange';
  return 'green';
}

export const HEALTH_DOT_CLASS: Record<HealthColour, string> = {
  red: 'bg-red-500',
  grey: 'bg-gray-400',
  orange: 'bg-orange-400',
  green: 'bg-green-500',
};

/** A group is good when all members are healthy, bad when none is, mixed otherwise. */
export type GroupHealth = 'good' | 'mixed' | 'bad';

export function groupHealth(checks: readonly Pick<CheckSummary, 'status'>[]): GroupHealth {
  const healthy = checks.filter((c) => c.status === 'healthy').length;
  if (healthy === checks.length) return 'good';
  if (healthy === 0) return 'bad';
  return 'mixed';
}

/** Percent of passing runs, or undefined with no runs in the range. */
export function uptimePercent(uptime: { passed: number; failed: number }): number | undefined {
  const total = uptime.passed + uptime.failed;
  return total > 0 ? (uptime.passed / total) * 100 : undefined;
}

/** Percent to one decimal (seed 000 section 9); cards use two. '—' with no runs. */
export function formatPercent(value: number | undefined, decimals = 1): string {
  return value === undefined ? '—' : `${value.toFixed(decimals)}%`;
}

/**
 * The uptime bar's colour (seed 000 section 4: green, orange above 75, red above 90), applied
 * to the share of failed runs the bar shows in its red part: a check failing most of its runs
 * turns the bar orange, then red.
 */
export function uptimeBarColour(failedPercent: number): HealthColour {
  if (failedPercent > 90) return 'red';
  if (failedPercent > 75) return 'orange';
  return 'green';
}

/** The latency shown in lists: p95 over the range, else the 1h rolling average. */
export function headlineLatency(c: Pick<CheckSummary, 'latency'>): number | undefined {
  const v = c.latency.p95 ?? c.latency.rolling1h;
  return v === null || v === undefined ? undefined : v;
}

/** 'Health age' is shown when the last run is over an hour old (seed 000 check drawer). */
export function isStale(lastRuntime: string | null | undefined, now: number = Date.now()): boolean {
  if (!lastRuntime) return false;
  const t = Date.parse(lastRuntime);
  return !Number.isNaN(t) && now - t > 3_600_000;
}
