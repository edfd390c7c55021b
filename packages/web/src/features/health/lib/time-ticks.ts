import dayjs from 'dayjs';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tick spacings a person reads at a glance: whole seconds, minutes, hours, days, weeks, months. */
const STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  90 * DAY,
  180 * DAY,
  365 * DAY,
];

export interface TimeTicks {
  ticks: number[];
  format: (t: number) => string;
}

/**
 * Ticks for a time axis from `min` to `max` (epoch ms): at most `maxTicks`, on whole local
 * seconds, minutes, hours or days, each with a label no other tick has (runs seconds apart get
 * 'HH:mm:ss'). Left to the chart library, ticks
 * fell on round numbers of milliseconds, several inside one minute, and an 'HH:mm' axis read
 * '21:20 21:20 21:20'.
 */
export function timeTicks(min: number, max: number, maxTicks = 6): TimeTicks {
  const span = Math.max(max - min, 0);
  const step = STEPS.find((s) => span / s <= maxTicks) ?? STEPS[STEPS.length - 1];
  const pattern =
    step >= 90 * DAY
      ? 'MMM YYYY'
      : step >= DAY
        ? 'MMM D'
        : span >= DAY
          ? 'MMM D HH:mm'
          : step < MINUTE
            ? 'HH:mm:ss'
            : 'HH:mm';
  const format = (t: number) => dayjs(t).format(pattern);
  // whole steps of local time: 10:20, 10:30 (not of UTC, which is off by the zone's minutes)
  const offset = dayjs(min).utcOffset() * MINUTE;
  let t = Math.ceil((min + offset) / step) * step - offset;
  const ticks: number[] = [];
  const seen = new Set<string>();
  for (; t <= max; t += step) {
    const label = format(t);
    if (!seen.has(label)) ticks.push(t);
    seen.add(label);
  }
  // a single point in time (one run): its own label
  if (!ticks.length) ticks.push(min);
  return { ticks, format };
}
