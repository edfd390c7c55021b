import { describe, expect, it } from 'vitest';
import { parseRelativeTime, durationToMs } from '../src/index.ts';

const now = new Date('2026-11-18T15:37:12.345Z'); // a Wednesday

describe('relative time syntax', () => {
  it('subtracts and adds with and without a number', () => {
    expect(parseRelativeTime('now', { now })?.toISOString()).toBe(now.toISOString());
    expect(parseRelativeTime('now-1h', { now })?.toISOString()).toBe('2026-11-18T14:37:12.345Z');
    expect(parseRelativeTime('now+2d', { now })?.toISOString()).toBe('2026-11-20T15:37:12.345Z');
    expect(parseRelativeTime('now-d', { now })?.toISOString()).toBe('2026-11-17T15:37:12.345Z');
    expect(parseRelativeTime('now-500ms', { now })?.toISOString()).toBe('2026-11-18T15:37:11.845Z');
    expect(parseRelativeTime('now-1M', { now })?.toISOString()).toBe('2026-10-18T15:37:12.345Z');
    expect(parseRelativeTime('now-1y', { now })?.toISOString()).toBe('2025-11-18T15:37:12.345Z');
  });
  it('rounds to the start of a unit, or its end when rounding up', () => {
    expect(parseRelativeTime('now/d', { now })?.toISOString()).toBe('2026-11-18T00:00:00.000Z');
    expect(parseRelativeTime('now/d', { now, roundUp: true })?.toISOString()).toBe('2026-11-18T23:59:59.999Z');
    expect(parseRelativeTime('now-1d/d', { now })?.toISOString()).toBe('2026-11-17T00:00:00.000Z');
    expect(parseRelativeTime('now/w', { now })?.toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(parseRelativeTime('now/M', { now })?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(parseRelativeTime('now/y', { now, roundUp: true })?.toISOString()).toBe('2026-12-31T23:59:59.999Z');
  });
  it('ignores unknown units and rejects what is not relative', () => {
    expect(parseRelativeTime('now-3q', { now })?.toISOString()).toBe(now.toISOString());
    expect(parseRelativeTime('2026-01-01', { now })).toBeUndefined();
  });
  it('converts time range options to milliseconds', () => {
    expect(durationToMs('15m')).toBe(900_000);
    expect(durationToMs('1w')).toBe(604_800_000);
    expect(durationToMs('1mo')).toBe(2_592_000_000);
    expect(durationToMs('bad')).toBeUndefined();
  });
});
