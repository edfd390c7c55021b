import { Cron } from 'croner';
import { parseDuration } from '@watchdeck/core';

/**
 * Schedules as resources write them: a cron expression (5 or 6 fields, or @hourly-style
 * nicknames), or `@every <duration>` with a Go-style duration (`30s`, `5m`, `1h30m`, `500ms`; core parseDuration).
 */
export type Schedule = { kind: 'every'; ms: number } | { kind: 'cron'; expr: string };

/** Throws with a message naming the problem when the schedule cannot be used. */
export function parseSchedule(text: string): Schedule {
  const t = text.trim();
  const every = /^@every\s+(.+)$/.exec(t);
  if (every) {
    const ms = parseDuration(every[1]);
    if (!ms) throw new Error(`invalid duration in schedule "${text}"`);
    return { kind: 'every', ms };
  }
  try {
    new Cron(t, { paused: true }).stop();
  } catch (err) {
    throw new Error(`invalid schedule "${text}": ${(err as Error).message}`, { cause: err });
  }
  return { kind: 'cron', expr: t };
}

/**
 * A job's stable offset within an `@every` interval (ScheduledJob.spread): a hash of its key, so
 * every replica computes the same slots and claims still meet. Whole milliseconds in [0, ms).
 */
export function slotPhase(key: string, ms: number): number {
  let h = 2166136261; // FNV-1a
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) % Math.max(1, Math.floor(ms));
}

/** The next run strictly after `after`; undefined when a cron never fires again. */
export function nextRun(schedule: Schedule, after: Date): Date | undefined {
  if (schedule.kind === 'every') {
    // Align to multiples of the interval so every replica computes the same slot.
    return new Date((Math.floor(after.getTime() / schedule.ms) + 1) * schedule.ms);
  }
  const cron = new Cron(schedule.expr, { paused: true, timezone: 'UTC' });
  const next = cron.nextRun(after) ?? undefined;
  cron.stop();
  return next;
}
