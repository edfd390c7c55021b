// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import {
  FUTURE_PRESETS,
  PAST_PRESETS,
  QUICK_RANGES,
  RECENT_RANGES_KEY,
  TimeRangePicker,
  UrlTimeRangePicker,
  absoluteRange,
  addRecentRange,
  resolveTimeRange,
  timeRangeFromParams,
  type TimeRange,
} from '../src/components/time-range/index.ts';
import { STORAGE_PREFIX, readStored } from '../src/lib/storage.ts';
import { renderWithProviders, searchOf } from './helpers.tsx';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

function Controlled({ initial, onChange }: { initial?: TimeRange; onChange?: (r: TimeRange) => void }) {
  const [value, setValue] = useState<TimeRange | undefined>(initial);
  return (
    <TimeRangePicker
      value={value}
      onChange={(r) => {
        setValue(r);
        onChange?.(r);
      }}
      onClear={() => setValue(undefined)}
    />
  );
}

const open = () => fireEvent.click(screen.getByRole('button', { name: /Time range/ }));

function submitAbsolute(from: string, to: string) {
  open();
  fireEvent.change(screen.getByLabelText('From'), { target: { value: from } });
  fireEvent.change(screen.getByLabelText('To'), { target: { value: to } });
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('time range model', () => {
  it('has the presets of the specification', () => {
    expect(PAST_PRESETS.map((p) => p.from)).toEqual(
      ['5m', '15m', '30m', '1h', '3h', '6h', '12h', '24h', '2d', '7d', '30d', '90d', '6M', '1y', '2y', '5y'].map(
        (d) => `now-${d}`,
      ),
    );
    expect(PAST_PRESETS[0]).toEqual({ type: 'relative', from: 'now-5m', to: 'now', display: 'Last 5 minutes' });
    expect(PAST_PRESETS[12].display).toBe('Last 6 months');
    expect(FUTURE_PRESETS[3]).toEqual({ type: 'relative', from: 'now', to: 'now+1h', display: 'Next 1 hour' });
    expect(QUICK_RANGES.map((q) => q.display)).toEqual([
      'Yesterday',
      'Day before yesterday',
      'This day last week',
      'Previous week',
      'Previous month',
      'Previous year',
      'Today',
      'Today so far',
      'This week',
      'This week so far',
      'This month',
      'This month so far',
      'This year',
      'This year so far',
    ]);
  });

  it('resolves relative and mapped ranges with parseRelativeTime', () => {
    const now = new Date('2024-05-15T10:30:00Z');
    expect(resolveTimeRange(PAST_PRESETS[3], now)).toEqual({ from: new Date('2024-05-15T09:30:00Z'), to: now });
    const yesterday = QUICK_RANGES.find((q) => q.display === 'Yesterday')!;
    expect(resolveTimeRange(yesterday, now)).toEqual({
      from: new Date('2024-05-14T00:00:00.000Z'),
      to: new Date('2024-05-14T23:59:59.999Z'),
    });
    const soFar = QUICK_RANGES.find((q) => q.display === 'Today so far')!;
    expect(resolveTimeRange(soFar, now)).toEqual({ from: new Date('2024-05-15T00:00:00.000Z'), to: now });
  });

  it("raises 'Invalid mapped time range' for a mapped absolute range and logs bad relative ones", () => {
    expect(() => resolveTimeRange({ type: 'mapped', from: '2024-01-01', to: '2024-01-02', display: 'x' })).toThrow(
      'Invalid mapped time range',
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(resolveTimeRange({ type: 'relative', from: 'yesterday', to: 'now', display: 'x' })).toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('keeps 5 recent ranges, most recent first, de-duplicated by from and to', () => {
    const ranges = Array.from({ length: 7 }, (_, i) =>
      absoluteRange(`2024-01-0${i + 1}T00:00:00Z`, `2024-01-0${i + 2}T00:00:00Z`),
    );
    let list: TimeRange[] = [];
    for (const r of ranges) list = addRecentRange(list, r);
    expect(list).toHaveLength(5);
    expect(list[0]).toEqual(ranges[6]);
    list = addRecentRange(list, { ...ranges[4], display: 'again' });
    expect(list).toHaveLength(5);
    expect(list[0].display).toBe('again');
    expect(list.filter((r) => r.from === ranges[4].from && r.to === ranges[4].to)).toHaveLength(1);
  });
});

describe('TimeRangePicker', () => {
  it('lists the relative and quick presets and picks one', () => {
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    open();
    const past = screen.getByRole('list', { name: 'Past time ranges' });
    expect(within(past).getAllByRole('button')).toHaveLength(16);
    expect(within(screen.getByRole('list', { name: 'Quick ranges' })).getAllByRole('button')).toHaveLength(14);
    fireEvent.click(within(past).getByRole('button', { name: 'Last 3 hours' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'relative', from: 'now-3h', to: 'now', display: 'Last 3 hours' });
    expect(screen.getByRole('button', { name: /Time range/ }).textContent).toContain('Last 3 hours');
  });

  it('offers future ranges', () => {
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'future' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next 30 minutes' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'relative', from: 'now', to: 'now+30m', display: 'Next 30 minutes' });
  });

  it('disables Submit until both From and To are filled', () => {
    render(<Controlled />);
    open();
    const submit = screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2024-03-01T10:00' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2024-03-01T12:00' } });
    expect(submit.disabled).toBe(false);
  });

  it('shows an error when From is not before To', () => {
    render(<Controlled />);
    open();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2024-03-02T10:00' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2024-03-01T12:00' } });
    expect(screen.getByRole('alert').textContent).toBe('From must be before To');
    expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps submitted absolute ranges in a recent list of 5, most recent first, de-duplicated', () => {
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    for (let day = 1; day <= 6; day++) submitAbsolute(`2024-03-0${day}T10:00`, `2024-03-0${day}T12:00`);
    submitAbsolute('2024-03-03T10:00', '2024-03-03T12:00');
    expect(onChange).toHaveBeenCalledTimes(7);
    expect(onChange.mock.calls[0][0]).toMatchObject({
      type: 'absolute',
      display: '2024-03-01 10:00 to 2024-03-01 12:00',
    });
    const stored = readStored<TimeRange[]>(RECENT_RANGES_KEY, []);
    expect(stored.map((r) => r.display.slice(0, 10))).toEqual([
      '2024-03-03',
      '2024-03-06',
      '2024-03-05',
      '2024-03-04',
      '2024-03-02',
    ]);
    expect(window.localStorage.getItem(STORAGE_PREFIX + RECENT_RANGES_KEY)).toBeTruthy();
    open();
    const recent = screen.getByRole('list', { name: 'Recently used absolute time ranges' });
    const items = within(recent).getAllByRole('button');
    expect(items).toHaveLength(5);
    expect(items[0].textContent).toBe('2024-03-03 10:00 to 2024-03-03 12:00');
    fireEvent.click(items[1]);
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ display: '2024-03-06 10:00 to 2024-03-06 12:00' }),
    );
  });
});

describe('UrlTimeRangePicker', () => {
  it('writes the range to the URL, resets pagination, and Clear removes all time parameters', () => {
    const { router } = renderWithProviders(<UrlTimeRangePicker />, {
      path: '/jobs?pageIndex=3&status=FAILED:1&timeRange=1h',
    });
    expect(screen.getByRole('button', { name: /Time range/ }).textContent).toContain('Last 1 hour');
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Yesterday' }));
    let params = searchOf(router);
    expect(params.get('rangeType')).toBe('mapped');
    expect(params.get('from')).toBe('now-1d/d');
    expect(params.get('to')).toBe('now-1d/d');
    expect(params.get('display')).toBe('Yesterday');
    expect(params.get('timeRange')).toBeNull();
    expect(params.get('pageIndex')).toBeNull();
    expect(params.get('status')).toBe('FAILED:1');
    expect(timeRangeFromParams(params)?.display).toBe('Yesterday');

    router.navigate('/jobs?rangeType=mapped&from=now-1d/d&to=now-1d/d&display=Yesterday&pageIndex=2&status=FAILED:1');
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    params = searchOf(router);
    expect([...params.keys()]).toEqual(['status']);
  });
});
