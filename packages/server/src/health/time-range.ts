import { parseDuration, parseRelativeTime } from '@watchdeck/core';

/**
 * `start` / `end` of the summary and graph calls: a duration back from now as the time-range
 * options write it ('15m', '1h', '1mo', '5y'), a relative expression ('now-2h'), or an instant
 * (ISO 8601). Bad input is a RangeError whose message says what is accepted (the routes answer 400).
 */
function parseInstant(text: string | undefined, field: string, now: Date): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const t = text.trim();
  const back = parseDuration(t);
  if (back !== undefined) return new Date(now.getTime() - back);
  if (t.startsWith('now')) {
    const d = parseRelativeTime(t, { now });
    if (d) return d;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) {
    const d = new Date(t);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new RangeError(
    `${field} must be a duration such as 1h, 7d or 1mo, a relative time such as now-2h, or an ISO timestamp; got "${text}"`,
  );
}

export interface TimeWindow {
  start: Date;
  end: Date;
}

/** The window of a request; `defaultStart` when start is missing. */
export function parseWindow(q: { start?: string; end?: string }, defaultStart: string, now = new Date()): TimeWindow {
  const start = parseInstant(q.start, 'start', now) ?? parseInstant(defaultStart, 'start', now)!;
  const end = parseInstant(q.end, 'end', now) ?? now;
  if (start.getTime() >= end.getTime()) throw new RangeError('start must be before end');
  return { start, end };
}
