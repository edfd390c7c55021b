import { describe, expect, it } from 'vitest';
import { parseDuration } from '@watchdeck/core';
import { parseSchedule, nextRun } from '#server/jobs/schedule.ts';

describe('schedules', () => {
  it('parses Go-style durations', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('10x')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });
  it('parses @every and cron, and rejects nonsense with a message', () => {
    expect(parseSchedule('@every 5m')).toEqual({ kind: 'every', ms: 300_000 });
    expect(parseSchedule('*/5 * * * *')).toEqual({ kind: 'cron', expr: '*/5 * * * *' });
    expect(parseSchedule('@hourly').kind).toBe('cron');
    expect(() => parseSchedule('@every soon')).toThrow(/invalid duration/);
    expect(() => parseSchedule('not a cron')).toThrow(/invalid schedule/);
  });
  it('computes aligned next runs so replicas agree on the slot', () => {
    const after = new Date('2026-11-22T10:00:07Z');
    expect(nextRun({ kind: 'every', ms: 30_000 }, after)?.toISOString()).toBe('2026-11-22T10:00:30.000Z');
    expect(nextRun({ kind: 'cron', expr: '0 * * * *' }, after)?.toISOString()).toBe('2026-11-22T11:00:00.000Z');
  });
});
