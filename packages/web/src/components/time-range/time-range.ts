import dayjs from 'dayjs';
import { parseRelativeTime } from '@watchdeck/core';

/**
 * A time range as the pickers produce it (seed 000 section 2): relative ('now-1h' .. 'now'),
 * absolute (two ISO instants) or mapped (a named range such as 'Yesterday' whose ends are
 * rounded relative expressions).
 */
type TimeRangeType = 'relative' | 'absolute' | 'mapped';

export interface TimeRange {
  type: TimeRangeType;
  from: string;
  to: string;
  display: string;
}

export interface ResolvedTimeRange {
  from: Date;
  to: Date;
}

const UNIT_WORDS: Record<string, [string, string]> = {
  m: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  d: ['day', 'days'],
  w: ['week', 'weeks'],
  M: ['month', 'months'],
  y: ['year', 'years'],
};

/** '15m' -> '15 minutes', '1y' -> '1 year'. */
function describeDuration(text: string): string {
  const m = /^(\d+)([mhdwMy])$/.exec(text);
  if (!m) return text;
  const n = Number(m[1]);
  const [one, many] = UNIT_WORDS[m[2]];
  return `${n} ${n === 1 ? one : many}`;
}

/** Relative presets, past and future (seed 000 section 9). */
const RELATIVE_PRESET_DURATIONS = [
  '5m',
  '15m',
  '30m',
  '1h',
  '3h',
  '6h',
  '12h',
  '24h',
  '2d',
  '7d',
  '30d',
  '90d',
  '6M',
  '1y',
  '2y',
  '5y',
] as const;

export function pastRange(duration: string): TimeRange {
  return { type: 'relative', from: `now-${duration}`, to: 'now', display: `Last ${describeDuration(duration)}` };
}

function futureRange(duration: string): TimeRange {
  return { type: 'relative', from: 'now', to: `now+${duration}`, display: `Next ${describeDuration(duration)}` };
}

export const PAST_PRESETS: readonly TimeRange[] = RELATIVE_PRESET_DURATIONS.map(pastRange);
export const FUTURE_PRESETS: readonly TimeRange[] = RELATIVE_PRESET_DURATIONS.map(futureRange);

const mapped = (display: string, from: string, to: string): TimeRange => ({ type: 'mapped', from, to, display });

/** Quick ranges (seed 000 section 9); `to` is rounded up to the end of its unit. */
export const QUICK_RANGES: readonly TimeRange[] = [
  mapped('Yesterday', 'now-1d/d', 'now-1d/d'),
  mapped('Day before yesterday', 'now-2d/d', 'now-2d/d'),
  mapped('This day last week', 'now-7d/d', 'now-7d/d'),
  mapped('Previous week', 'now-1w/w', 'now-1w/w'),
  mapped('Previous month', 'now-1M/M', 'now-1M/M'),
  mapped('Previous year', 'now-1y/y', 'now-1y/y'),
  mapped('Today', 'now/d', 'now/d'),
  mapped('Today so far', 'now/d', 'now'),
  mapped('This week', 'now/w', 'now/w'),
  mapped('This week so far', 'now/w', 'now'),
  mapped('This month', 'now/M', 'now/M'),
  mapped('This month so far', 'now/M', 'now'),
  mapped('This year', 'now/y', 'now/y'),
  mapped('This year so far', 'now/y', 'now'),
];

const ABSOLUTE_DISPLAY_FORMAT = 'YYYY-MM-DD HH:mm';

export function absoluteRange(from: string | Date, to: string | Date): TimeRange {
  const f = dayjs(from);
  const t = dayjs(to);
  return {
    type: 'absolute',
    from: f.toISOString(),
    to: t.toISOString(),
    display: `${f.format(ABSOLUTE_DISPLAY_FORMAT)} to ${t.format(ABSOLUTE_DISPLAY_FORMAT)}`,
  };
}

/** Why an absolute From/To pair can't be used, or undefined when it can. */
export function absoluteRangeError(from: string, to: string): string | undefined {
  if (!from || !to) return undefined;
  const f = dayjs(from);
  const t = dayjs(to);
  if (!f.isValid()) return 'From is not a valid date';
  if (!t.isValid()) return 'To is not a valid date';
  if (!f.isBefore(t)) return 'From must be before To';
  return undefined;
}

/**
 * The instants a range covers at `now`. Unresolvable relative and mapped ranges are logged and
 * give undefined; a mapped range whose ends are not relative expressions is an error.
 */
export function resolveTimeRange(range: TimeRange, now: Date = new Date()): ResolvedTimeRange | undefined {
  if (range.type === 'absolute') {
    const from = new Date(range.from);
    const to = new Date(range.to);
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
      console.warn('Invalid absolute time range', range);
      return undefined;
    }
    return { from, to };
  }
  if (range.type === 'mapped' && (!range.from.trim().startsWith('now') || !range.to.trim().startsWith('now'))) {
    throw new Error('Invalid mapped time range');
  }
  const from = parseRelativeTime(range.from, { now });
  const to = parseRelativeTime(range.to, { now, roundUp: true });
  if (!from || !to) {
    console.warn(`Invalid ${range.type} time range`, range);
    return undefined;
  }
  return { from, to };
}

export const isSameRange = (a: TimeRange | undefined, b: TimeRange | undefined) =>
  !!a && !!b && a.type === b.type && a.from === b.from && a.to === b.to;

// Recently used absolute ranges: 5, most recent first, one per from/to pair.
export const RECENT_RANGES_KEY = 'timeRange.recent';
export const RECENT_RANGES_LIMIT = 5;

export function addRecentRange(list: readonly TimeRange[], range: TimeRange): TimeRange[] {
  return [range, ...list.filter((r) => r.from !== range.from || r.to !== range.to)].slice(0, RECENT_RANGES_LIMIT);
}

// URL form: rangeType, from, to, display. `timeRange` (e.g. 1h) is the short form some screens
// use for a relative range; `range` is kept for screens that store a duration separately.
export const TIME_RANGE_PARAMS = ['rangeType', 'from', 'to', 'display', 'range', 'timeRange'] as const;

export function timeRangeFromParams(params: URLSearchParams, prefix = ''): TimeRange | undefined {
  const get = (k: string) => params.get(prefix + k);
  const type = get('rangeType');
  const from = get('from');
  const to = get('to');
  if ((type === 'relative' || type === 'absolute' || type === 'mapped') && from && to) {
    return {
      type,
      from,
      to,
      display: get('display') ?? (type === 'absolute' ? absoluteRange(from, to).display : `${from} to ${to}`),
    };
  }
  const short = get('timeRange') ?? get('range');
  if (short && /^\d+[smhdwMy]$|^\d+mo$/.test(short)) return pastRange(short.replace(/mo$/, 'M'));
  return undefined;
}

export function timeRangeToParams(range: TimeRange, prefix = ''): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const k of TIME_RANGE_PARAMS) out[prefix + k] = null;
  out[prefix + 'rangeType'] = range.type;
  out[prefix + 'from'] = range.from;
  out[prefix + 'to'] = range.to;
  out[prefix + 'display'] = range.display;
  return out;
}

export function clearedTimeRangeParams(prefix = ''): Record<string, null> {
  return Object.fromEntries(TIME_RANGE_PARAMS.map((k) => [prefix + k, null]));
}
