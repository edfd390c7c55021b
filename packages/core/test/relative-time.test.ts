import { describe, expect, it } from 'vitest';
import { parseRelativeTime, parseDuration } from '../src/index.ts';

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
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('1w')).toBe(604_800_000);
    expect(parseDuration('1mo')).toBe(2_592_000_000);
    expect(parseDuration('bad')).toBeUndefined();
  });
});

describe('parseDuration', () => {
  it('reads one unit or several in a row, Go style', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration(' 7d ')).toBe(604_800_000);
    expect(parseDuration('2w')).toBe(1_209_600_000);
    expect(parseDuration('1y')).toBe(31_536_000_000);
    expect(parseDuration('1M')).toBe(parseDuration('1mo'));
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('100 ms')).toBe(100);
  });
  it('refuses what is not a duration', () => {
    for (const bad of ['', ' ', 'bad', '10x', '5', 'h', '1h-5m', 'now-1h', '2024-01-01', '1h 30m', '-1h'])
      expect(parseDuration(bad), bad).toBeUndefined();
  });
  it('narrows the units when asked', () => {
    expect(parseDuration('1.5s', { units: ['ms', 's'] })).toBe(1500);
    expect(parseDuration('1m', { units: ['ms', 's'] })).toBeUndefined();
    expect(parseDuration('1s500ms', { units: ['ms', 's'] })).toBe(1500);
  });
});
