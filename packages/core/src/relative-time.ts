/**
 * Relative time expressions as the time-range picker writes them (seed 000 section 2):
 * `now`, then any sequence of `+N<unit>`, `-N<unit>` and `/<unit>` (round to the start of the
 * unit for `from`, to its end for `to`). Units: ms s m h d w M y. The number is optional (1).
 * Unknown units are ignored, as the seeds say. Everything is computed in UTC.
 */
export type TimeUnit = 'ms' | 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';
const UNITS: TimeUnit[] = ['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y'];

const FIXED_MS: Partial<Record<TimeUnit, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

function add(date: Date, n: number, unit: TimeUnit): Date {
  const d = new Date(date);
  if (unit === 'M') d.setUTCMonth(d.getUTCMonth() + n);
  else if (unit === 'y') d.setUTCFullYear(d.getUTCFullYear() + n);
  else d.setTime(d.getTime() + n * FIXED_MS[unit]!);
  return d;
}

function startOf(date: Date, unit: TimeUnit): Date {
  const d = new Date(date);
  switch (unit) {
    case 'y':
      d.setUTCMonth(0, 1);
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'M':
      d.setUTCDate(1);
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'w': {
      const day = (d.getUTCDay() + 6) % 7;
      d.setUTCDate(d.getUTCDate() - day);
      d.setUTCHours(0, 0, 0, 0);
      break;
    } // weeks start Monday
    case 'd':
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'h':
      d.setUTCMinutes(0, 0, 0);
      break;
    case 'm':
      d.setUTCSeconds(0, 0);
      break;
    case 's':
      d.setUTCMilliseconds(0);
      break;
    case 'ms':
      break;
  }
  return d;
}

function endOf(date: Date, unit: TimeUnit): Date {
  if (unit === 'ms') return new Date(date);
  return new Date(add(startOf(date, unit), 1, unit).getTime() - 1);
}

/** Parses `now-1h/h` etc. Returns undefined when the text is not a relative expression. */
export function parseRelativeTime(expr: string, opts: { now?: Date; roundUp?: boolean } = {}): Date | undefined {
  const text = expr.trim();
  if (!text.startsWith('now')) return undefined;
  let date = new Date(opts.now ?? Date.now());
  const re = /([+\-/])(\d*)(ms|[smhdwMy]?)([a-zA-Z]*)/gy;
  let pos = 3;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return undefined;
    pos = re.lastIndex;
    const [, op, num, unitRaw, rest] = m;
    const unit = (rest ? undefined : unitRaw) as TimeUnit | undefined;
    if (!unit || !UNITS.includes(unit)) continue; // unknown units are ignored
    if (op === '/') date = opts.roundUp ? endOf(date, unit) : startOf(date, unit);
    else date = add(date, (op === '-' ? -1 : 1) * (num === '' ? 1 : Number(num)), unit);
  }
  return date;
}

export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd' | 'w' | 'mo' | 'M' | 'y';
const DURATION_MS: Record<DurationUnit, number> = {
  ms: 1,
  s: 1e3,
  m: 6e4,
  h: 3.6e6,
  d: 8.64e7,
  w: 6.048e8,
  mo: 2.592e9,
  M: 2.592e9,
  y: 3.1536e10,
};
const ALL_UNITS = Object.keys(DURATION_MS) as DurationUnit[];

/**
 * The one duration parser: a number and a unit, or several in a row as Go writes them
 * (`30s`, `1h30m`, `500ms`, `7d`, `1mo`, `2y`), in milliseconds. Settings, schedules, check specs,
 * time ranges, token lifetimes and the history filter all read durations with it; `units`
 * narrows the units a caller accepts. `0s` is 0; text that is not a duration is undefined.
 */
export function parseDuration(text: string, opts: { units?: readonly DurationUnit[] } = {}): number | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const allowed = opts.units ?? ALL_UNITS;
  // longest units first, so 'ms' and 'mo' are not read as minutes
  const re = /(\d+(?:\.\d+)?)\s*(ms|mo|s|m|h|d|w|M|y)/y;
  let total = 0;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m || !allowed.includes(m[2] as DurationUnit)) return undefined;
    total += Number(m[1]) * DURATION_MS[m[2] as DurationUnit];
    pos = re.lastIndex;
  }
  return total;
}
