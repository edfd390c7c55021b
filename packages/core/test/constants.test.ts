import { describe, expect, it } from 'vitest';
import { PAGE_SIZES, DEFAULT_PAGE_SIZE, SEVERITIES } from '../src/index.ts';

describe('constants', () => {
  it('offers the default page size among the page sizes', () => {
    expect(PAGE_SIZES).toContain(DEFAULT_PAGE_SIZE);
  });
  it('orders severities from least to most severe', () => {
    expect(SEVERITIES.indexOf('critical')).toBeGreaterThan(SEVERITIES.indexOf('low'));
  });
});
