import { describe, expect, it } from 'vitest';
import { encodeTriState, decodeTriState, triStateToFilter } from '../src/index.ts';

describe('tri-state URL codec', () => {
  it('round-trips includes and excludes', () => {
    const map = { healthy: 1, unhealthy: -1 } as const;
    expect(encodeTriState(map)).toBe('healthy:1,unhealthy:-1');
    expect(decodeTriState('healthy:1,unhealthy:-1')).toEqual(map);
  });
  it('escapes commas and colons inside values', () => {
    const map = { 'team:payments': 1, 'a,b': -1, 'back\\slash': 1 } as const;
    const text = encodeTriState(map);
    expect(text).toBe('team\\:payments:1,a\\,b:-1,back\\\\slash:1');
    expect(decodeTriState(text)).toEqual(map);
  });
  it('ignores malformed entries and empty input', () => {
    expect(decodeTriState('')).toEqual({});
    expect(decodeTriState('x:2,y:1')).toEqual({ y: 1 });
  });
  it('builds the server filter with ! for exclusions', () => {
    expect(triStateToFilter({ a: 1, b: -1 })).toBe('a,!b');
    expect(triStateToFilter({ 'x,y': 1 })).toBe('x\\,y');
    expect(triStateToFilter({})).toBeUndefined();
  });
});
