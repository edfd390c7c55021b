import { useId, useState, type FormEvent } from 'react';
import * as Popover from '@radix-ui/react-popover';
import dayjs from 'dayjs';
import { CalendarClock, ChevronDown, Clock, History, X } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { useLocalStorage } from '#web/lib/storage.ts';
import { Button } from '../ui/button.tsx';
import {
  FUTURE_PRESETS,
  PAST_PRESETS,
  QUICK_RANGES,
  RECENT_RANGES_KEY,
  RECENT_RANGES_LIMIT,
  absoluteRange,
  absoluteRangeError,
  addRecentRange,
  isSameRange,
  type TimeRange,
} from './time-range.ts';
import { useTimeRangeParams } from './use-time-range-params.ts';

export interface TimeRangePickerProps {
  value?: TimeRange;
  onChange: (range: TimeRange) => void;
  /** Shows a Clear action that removes the range. */
  onClear?: () => void;
  /** Offer "Next ..." ranges (e.g. silences end in the future). */
  showFuture?: boolean;
  placeholder?: string;
  className?: string;
  align?: 'start' | 'center' | 'end';
}

const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';

function PresetButton({
  range,
  active,
  onPick,
}: {
  range: TimeRange;
  active: boolean;
  onPick: (r: TimeRange) => void;
}) {
  return (
    <button
      type="button"
      onClick={() => onPick(range)}
      aria-pressed={active}
      className={cn(
        'w-full rounded px-2 py-1 text-left text-sm transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
        active ? 'bg-blue-50 font-medium text-blue-700' : 'text-gray-700 hover:bg-gray-100',
      )}
    >
      {range.display}
    </button>
  );
}

function AbsoluteForm({ value, onSubmit }: { value?: TimeRange; onSubmit: (range: TimeRange) => void }) {
  const initial = value?.type === 'absolute';
  const [from, setFrom] = useState(initial ? dayjs(value.from).format(INPUT_FORMAT) : '');
  const [to, setTo] = useState(initial ? dayjs(value.to).format(INPUT_FORMAT) : '');
  const fromId = useId();
  const toId = useId();
  const error = absoluteRangeError(from, to);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!from || !to || error) return;
    onSubmit(absoluteRange(dayjs(from).toDate(), dayjs(to).toDate()));
  };
  const inputClass =
    'h-8 w-full rounded-md border border-gray-300 px-2 text-sm text-gray-800 focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none';
  return (
    <form onSubmit={submit} className="space-y-2" aria-label="Absolute time range">
      <div>
        <label htmlFor={fromId} className="mb-0.5 block text-xs font-medium text-gray-600">
          From
        </label>
        <input
          id={fromId}
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor={toId} className="mb-0.5 block text-xs font-medium text-gray-600">
          To
        </label>
        <input
          id={toId}
          type="datetime-local"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          className={inputClass}
        />
      </div>
      {error && (
        <p className="text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
      <Button
        type="submit"
        variant="primary"
        size="sm"
        disabled={!from || !to || !!error}
        className="w-full justify-center"
      >
        Submit
      </Button>
    </form>
  );
}

/**
 * The time-range picker: absolute From/To with a list of recent absolute ranges, relative
 * presets (past and future) and quick ranges. Controlled: the caller keeps the value.
 */
export function TimeRangePicker({
  value,
  onChange,
  onClear,
  showFuture = true,
  placeholder = 'Select time range',
  className,
  align = 'end',
}: TimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [direction, setDirection] = useState<'past' | 'future'>(() =>
    value?.type === 'relative' && value.from === 'now' ? 'future' : 'past',
  );
  const [recent, setRecent] = useLocalStorage<TimeRange[]>(RECENT_RANGES_KEY, []);
  const pick = (range: TimeRange) => {
    if (range.type === 'absolute') setRecent((list) => addRecentRange(Array.isArray(list) ? list : [], range));
    onChange(range);
    setOpen(false);
  };
  const relative = direction === 'future' ? FUTURE_PRESETS : PAST_PRESETS;
  const recentList = (Array.isArray(recent) ? recent : []).slice(0, RECENT_RANGES_LIMIT);

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        className={cn(
          'inline-flex h-9 max-w-full items-center gap-2 rounded-md border border-gray-300 bg-white px-3 text-sm text-gray-700 shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600',
          className,
        )}
        aria-label={`Time range: ${value?.display ?? placeholder}`}
      >
        <Clock size={15} className="shrink-0 text-gray-500" aria-hidden />
        <span className={cn('truncate', !value && 'text-gray-400')}>{value?.display ?? placeholder}</span>
        <ChevronDown size={14} className="shrink-0 text-gray-400" aria-hidden />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align={align}
          sideOffset={6}
          collisionPadding={8}
          className="z-50 w-[min(44rem,calc(100vw-1rem))] rounded-lg border border-gray-200 bg-white shadow-xl focus:outline-none"
          aria-label="Choose a time range"
        >
          <div className="grid max-h-[70vh] grid-cols-1 divide-y divide-gray-100 overflow-auto sm:grid-cols-3 sm:divide-x sm:divide-y-0">
            <section className="space-y-3 p-3">
              <h3 className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-gray-500 uppercase">
                <CalendarClock size={13} aria-hidden /> Absolute time range
              </h3>
              <AbsoluteForm key={open ? 'open' : 'closed'} value={value} onSubmit={pick} />
              <div>
                <h3 className="mb-1 flex items-center gap-1.5 text-xs font-semibold tracking-wide text-gray-500 uppercase">
                  <History size={13} aria-hidden /> Recently used
                </h3>
                {recentList.length ? (
                  <ul aria-label="Recently used absolute time ranges" className="space-y-0.5">
                    {recentList.map((r) => (
                      <li key={`${r.from}|${r.to}`}>
                        <PresetButton range={r} active={isSameRange(r, value)} onPick={pick} />
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="px-2 text-xs text-gray-400">No recent absolute ranges</p>
                )}
              </div>
            </section>
            <section className="p-3">
              <div className="mb-2 flex items-center justify-between">
                <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Relative</h3>
                {showFuture && (
                  <div
                    className="inline-flex rounded-md border border-gray-200 p-0.5 text-xs"
                    role="group"
                    aria-label="Direction"
                  >
                    {(['past', 'future'] as const).map((d) => (
                      <button
                        key={d}
                        type="button"
                        aria-pressed={direction === d}
                        onClick={() => setDirection(d)}
                        className={cn(
                          'rounded px-2 py-0.5 capitalize',
                          direction === d ? 'bg-gray-900 text-white' : 'text-gray-600 hover:bg-gray-100',
                        )}
                      >
                        {d}
                      </button>
                    ))}
                  </div>
                )}
              </div>
              <ul
                aria-label={direction === 'future' ? 'Future time ranges' : 'Past time ranges'}
                className="space-y-0.5"
              >
                {relative.map((r) => (
                  <li key={r.from + r.to}>
                    <PresetButton range={r} active={isSameRange(r, value)} onPick={pick} />
                  </li>
                ))}
              </ul>
            </section>
            <section className="p-3">
              <h3 className="mb-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">Quick ranges</h3>
              <ul aria-label="Quick ranges" className="space-y-0.5">
                {QUICK_RANGES.map((r) => (
                  <li key={r.display}>
                    <PresetButton range={r} active={isSameRange(r, value)} onPick={pick} />
                  </li>
                ))}
              </ul>
            </section>
          </div>
          {onClear && (
            <div className="flex justify-end border-t border-gray-100 px-3 py-2">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  onClear();
                  setOpen(false);
                }}
              >
                <X size={13} aria-hidden /> Clear
              </Button>
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The picker bound to the URL: choosing writes it and resets pagination; Clear removes it. */
export function UrlTimeRangePicker({
  defaultRange,
  prefix,
  ...props
}: Omit<TimeRangePickerProps, 'value' | 'onChange' | 'onClear'> & { defaultRange?: TimeRange; prefix?: string }) {
  const { range, setRange, clear } = useTimeRangeParams({ defaultRange, prefix });
  return <TimeRangePicker {...props} value={range} onChange={setRange} onClear={clear} />;
}
