import { Cron } from 'croner';

/**
 * Schedules as resources write them: a cron expression (5 or 6 fields, or @hourly-style
 * nicknames), or `@every <duration>` with a Go-style duration (`30s`, `5m`, `1h30m`, `500ms`).
 */
export type Schedule = { kind: 'every'; ms: number } | { kind: 'cron'; expr: string };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseGoDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let pos = 0;
  const t = text.trim();
  if (!t) return undefined;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
  }
  return total > 0 ? total : undefined;
}

/** Throws with a message naming the problem when the schedule cannot be used. */
export function parseSchedule(text: string): Schedule {
  const t = text.trim();
  const every = /^@every\s+(.+)$/.exec(t);
  if (every) {
    const ms = parseGoDuration(every[1]);
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
