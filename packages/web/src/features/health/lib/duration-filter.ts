import { parseDuration } from '@watchdeck/core';

/**
 * The History tab's duration filter (seed 000 sections 2 and 5): All or a minimum run duration.
 * A value is a number with an ms or s suffix; seconds become milliseconds. Anything else is
 * refused with the seed's message.
 */
export const DURATION_FILTER_ERROR = 'duration is allowed only in milli seconds & seconds';

export const DURATION_FILTER_PRESETS = ['100ms', '500ms', '1s', '5s', '10s', '30s'] as const;

export type DurationFilterResult = { ok: true; ms: number | undefined } | { ok: false; error: string };

/** '' or 'All' means no filter (ms undefined). */
export function parseDurationFilter(text: string | null | undefined): DurationFilterResult {
  const t = (text ?? '').trim();
  if (t === '' || t.toLowerCase() === 'all') return { ok: true, ms: undefined };
  const ms = parseDuration(t, { units: ['ms', 's'] });
  if (ms === undefined) return { ok: false, error: DURATION_FILTER_ERROR };
  return { ok: true, ms: Math.round(ms) };
}
