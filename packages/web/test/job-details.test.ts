import { describe, expect, it } from 'vitest';
import { availableTabs, initialTab, jobErrors } from '../src/components/job-history/job-details.ts';
import { formatDuration } from '../src/lib/format.ts';

describe('job run details', () => {
  it('reads errors as a string, a list, or a map keyed by name with nested errors', () => {
    expect(jobErrors({ errors: 'context deadline exceeded' })).toEqual([{ message: 'context deadline exceeded' }]);
    expect(jobErrors({ errors: ['a', '', 'b'] })).toEqual([{ message: 'a' }, { message: 'b' }]);
    expect(
      jobErrors({
        errors: { 'AWS::Lambda::Function/x': 'AccessDenied', pod: { error: { message: 'nested' } }, empty: '' },
      }),
    ).toEqual([
      { name: 'AWS::Lambda::Function/x', message: 'AccessDenied' },
      { name: 'pod', message: 'nested' },
    ]);
    expect(jobErrors(null)).toEqual([]);
    expect(jobErrors({ errors: {} })).toEqual([]);
  });

  it('opens on Errors, else Scrape Summary, else Reconcile Summary, and not at all when empty', () => {
    const scrape = { 'Kubernetes::Pod': { added: 1 } };
    const summary = { components: 35 };
    expect(initialTab({ errors: 'x', scrape_summary: scrape, summary })).toBe('errors');
    expect(availableTabs({ errors: 'x', scrape_summary: scrape, summary })).toEqual([
      'errors',
      'scrape_summary',
      'summary',
    ]);
    expect(initialTab({ errors: [], scrape_summary: scrape, summary })).toBe('scrape_summary');
    expect(initialTab({ scrape_summary: {}, summary })).toBe('summary');
    expect(initialTab({ errors: '', scrape_summary: {}, summary: {} })).toBeUndefined();
    expect(initialTab(null)).toBeUndefined();
  });

  it('formats durations in ms, s, m, h and d', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(4200)).toBe('4.2s');
    expect(formatDuration(31_000)).toBe('31s');
    expect(formatDuration(200_000)).toBe('3m 20s');
    expect(formatDuration(7_500_000)).toBe('2h 5m');
    expect(formatDuration(97_200_000)).toBe('1d 3h');
    expect(formatDuration(null)).toBe('');
  });
});
