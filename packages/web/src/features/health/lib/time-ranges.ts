import { TIME_RANGE_OPTIONS, parseDuration } from '@watchdeck/core';

/**
 * The health area's time ranges and auto-refresh rates (seed 000 section 9). A time range here is
 * one of the fixed options ('15m' .. '5y'), kept in the URL as `timeRange`, always ending now.
 */
export type HealthTimeRange = (typeof TIME_RANGE_OPTIONS)[number];

export const HEALTH_TIME_RANGES = TIME_RANGE_OPTIONS;
/** What /health shows before the user picks a range. */
export const DEFAULT_HEALTH_TIME_RANGE: HealthTimeRange = '1h';

const UNIT_WORDS: Record<string, [string, string]> = {
  m: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  d: ['day', 'days'],
  w: ['week', 'weeks'],
  mo: ['month', 'months'],
  y: ['year', 'years'],
};

export function isHealthTimeRange(text: string | null | undefined): text is HealthTimeRange {
  return !!text && (HEALTH_TIME_RANGES as readonly string[]).includes(text);
}

/** '1h' -> 'Last 1 hour', '3mo' -> 'Last 3 months'. */
export function timeRangeLabel(range: HealthTimeRange): string {
  const m = /^(\d+)(mo|[mhdwy])$/.exec(range);
  if (!m) return range;
  const n = Number(m[1]);
  const [one, many] = UNIT_WORDS[m[2]];
  return `Last ${n} ${n === 1 ? one : many}`;
}

function timeRangeMinutes(range: HealthTimeRange): number {
  return (parseDuration(range) ?? 3_600_000) / 60_000;
}

/** The start of a range ending at `now`, as an ISO instant (what the summary and graph calls take). */
export function timeRangeStart(range: HealthTimeRange, now: number = Date.now()): string {
  return new Date(now - (parseDuration(range) ?? 3_600_000)).toISOString();
}

/**
 * Default range of a check's drawer from how long ago it last ran (seed 000 section 9): the
 * smallest option that still covers the last run; 5y when it is older than 3 years (or unknown).
 */
const DEFAULT_CHECK_RANGE_STEPS: readonly HealthTimeRange[] = [
  '1h',
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
];

export function defaultCheckTimeRange(
  lastRuntime: string | null | undefined,
  now: number = Date.now(),
): HealthTimeRange {
  const t = lastRuntime ? Date.parse(lastRuntime) : NaN;
  if (Number.isNaN(t)) return '5y';
  const ageMinutes = Math.max(0, (now - t) / 60_000);
  for (const step of DEFAULT_CHECK_RANGE_STEPS) {
    if (ageMinutes < timeRangeMinutes(step)) return step;
  }
  return '5y';
}

/** Auto-refresh choices (seed 000 section 9): default None, remembered in localStorage. */
export interface RefreshOption {
  value: string;
  label: string;
  /** 0 for None */
  ms: number;
}

export const REFRESH_OPTIONS: readonly RefreshOption[] = [
  { value: 'none', label: 'None', ms: 0 },
  { value: '15s', label: '15s', ms: 15_000 },
  { value: '30s', label: '30s', ms: 30_000 },
  { value: '1m', label: '1 minute', ms: 60_000 },
  { value: '2m', label: '2m', ms: 120_000 },
  { value: '3m', label: '3m', ms: 180_000 },
  { value: '5m', label: '5m', ms: 300_000 },
  { value: '10m', label: '10m', ms: 600_000 },
  { value: '15m', label: '15m', ms: 900_000 },
];
export const DEFAULT_REFRESH = 'none';
export const REFRESH_STORAGE_KEY = 'health.refreshRate';

/**
 * Rates too fast for the range (seed 000 section 9): for a range of 60 minutes or more 15s and
 * 30s are disabled; for 180 minutes or more 2m and 3m as well. Re-reading a long range every few
 * seconds costs the server far more than it tells the viewer.
 */
export function isRefreshDisabled(option: string, range: HealthTimeRange): boolean {
  const minutes = timeRangeMinutes(range);
  if (minutes >= 60 && (option === '15s' || option === '30s')) return true;
  if (minutes >= 180 && (option === '2m' || option === '3m')) return true;
  return false;
}

/** The interval to refetch at: 0 when none was chosen or the chosen one is disabled for the range. */
export function refreshIntervalMs(option: string, range: HealthTimeRange): number {
  if (isRefreshDisabled(option, range)) return 0;
  return REFRESH_OPTIONS.find((o) => o.value === option)?.ms ?? 0;
}
