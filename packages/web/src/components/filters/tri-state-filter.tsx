import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Ban, ChevronDown, Plus, Search } from 'lucide-react';
import type { TriState, TriStateMap } from '@watchdeck/core';
import { cn } from '#web/lib/cn.ts';
import { useTriStateParam } from '#web/lib/url-state.ts';
import { Spinner } from '../ui/spinner.tsx';

const NO_OPTIONS_MESSAGE = 'No options found';
const START_TYPING_MESSAGE = 'Start typing to search';
/** Longer option lists are windowed (seed 000 section 9). */
const OPTION_WINDOW_THRESHOLD = 20;

export interface TriStateOption {
  value: string;
  label?: string;
  icon?: ReactNode;
}

export interface TriStateFilterProps {
  label: string;
  options: readonly TriStateOption[];
  value: TriStateMap;
  onChange: (next: TriStateMap) => void;
  /** Show a search box (default: more than 8 options, or when the caller searches). */
  searchable?: boolean;
  /** The caller looks options up from the typed text (debounce on its side). */
  onSearchChange?: (text: string) => void;
  /** Options only appear after typing ('Start typing to search' before). */
  requireSearch?: boolean;
  isLoading?: boolean;
  className?: string;
}

function nextMap(map: TriStateMap, value: string, state: TriState | 0): TriStateMap {
  const out = { ...map };
  if (state === 0) delete out[value];
  else out[value] = state;
  return out;
}

function OptionRow({
  option,
  state,
  onSet,
}: {
  option: TriStateOption;
  state: TriState | 0;
  onSet: (state: TriState | 0) => void;
}) {
  const text = option.label ?? option.value;
  return (
    <div
      className={cn(
        'group flex h-8 items-center gap-2 rounded px-2 text-sm',
        state === 1 && 'bg-blue-50',
        state === -1 && 'bg-red-50',
      )}
      data-state={state === 1 ? 'include' : state === -1 ? 'exclude' : 'none'}
    >
      <button
        type="button"
        className={cn(
          'flex min-w-0 flex-1 items-center gap-2 text-left',
          state === -1 ? 'text-red-700 line-through' : state === 1 ? 'font-medium text-blue-800' : 'text-gray-700',
        )}
        onClick={() => onSet(state === 0 ? 1 : 0)}
        title={text}
      >
        {option.icon}
        <span className="truncate">{text}</span>
      </button>
      <button
        type="button"
        aria-label={`Include ${text}`}
        aria-pressed={state === 1}
        onClick={() => onSet(state === 1 ? 0 : 1)}
        className={cn(
          'rounded p-1 focus-visible:outline-2 focus-visible:outline-blue-600',
          state === 1 ? 'bg-blue-600 text-white' : 'text-gray-400 hover:bg-gray-200 hover:text-gray-700',
        )}
      >
        <Plus size={13} aria-hidden />
      </button>
      <button
        type="button"
        aria-label={`Exclude ${text}`}
        aria-pressed={state === -1}
        onClick={() => onSet(state === -1 ? 0 : -1)}
        className={cn(
          'rounded p-1 focus-visible:outline-2 focus-visible:outline-blue-600',
          state === -1 ? 'bg-red-600 text-white' : 'text-gray-400 hover:bg-gray-200 hover:text-gray-700',
        )}
      >
        <Ban size={13} aria-hidden />
      </button>
    </div>
  );
}

function WindowedOptions({
  options,
  render,
}: {
  options: readonly TriStateOption[];
  render: (o: TriStateOption) => ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- read in this render only
  const virtualizer = useVirtualizer({
    count: options.length,
    getScrollElement: () => ref.current,
    estimateSize: () => 32,
    overscan: 10,
  });
  return (
    <div ref={ref} className="max-h-72 overflow-auto">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={options[item.index].value}
            style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
          >
            {render(options[item.index])}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * A dropdown of options, each included, excluded or left alone. The value is the tri-state map
 * that encodeTriState puts in the URL ('value:1', 'value:-1').
 */
export function TriStateFilter({
  label,
  options,
  value,
  onChange,
  searchable,
  onSearchChange,
  requireSearch,
  isLoading,
  className,
}: TriStateFilterProps) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const showSearch = searchable ?? (!!onSearchChange || options.length > 8);
  const filtered = useMemo(() => {
    if (onSearchChange || !query.trim()) return options;
    const q = query.trim().toLowerCase();
    return options.filter((o) => (o.label ?? o.value).toLowerCase().includes(q) || o.value.toLowerCase().includes(q));
  }, [options, query, onSearchChange]);
  const active = Object.entries(value);
  const render = (o: TriStateOption) => (
    <OptionRow
      key={o.value}
      option={o}
      state={value[o.value] ?? 0}
      onSet={(s) => onChange(nextMap(value, o.value, s))}
    />
  );

  let body: ReactNode;
  if (isLoading) {
    body = (
      <div className="flex items-center justify-center gap-2 py-4 text-sm text-gray-500">
        <Spinner size={14} /> Loading…
      </div>
    );
  } else if (requireSearch && !query.trim()) {
    body = <p className="py-4 text-center text-sm text-gray-500">{START_TYPING_MESSAGE}</p>;
  } else if (!filtered.length) {
    body = <p className="py-4 text-center text-sm text-gray-500">{NO_OPTIONS_MESSAGE}</p>;
  } else if (filtered.length > OPTION_WINDOW_THRESHOLD) {
    body = <WindowedOptions options={filtered} render={render} />;
  } else {
    body = <div className="max-h-72 overflow-auto">{filtered.map(render)}</div>;
  }

  return (
    <Popover.Root onOpenChange={(open) => !open && setQuery('')}>
      <Popover.Trigger
        className={cn(
          'inline-flex h-9 items-center gap-2 rounded-md border bg-white px-3 text-sm shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600',
          active.length ? 'border-blue-300 text-gray-900' : 'border-gray-300 text-gray-700',
          className,
        )}
      >
        <span>{label}</span>
        {active.length > 0 && (
          <span
            className="rounded-full bg-blue-600 px-1.5 text-xs font-medium text-white"
            aria-label={`${active.length} selected`}
          >
            {active.length}
          </span>
        )}
        <ChevronDown size={14} className="text-gray-400" aria-hidden />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 w-72 rounded-lg border border-gray-200 bg-white p-1.5 shadow-xl focus:outline-none"
          aria-label={`${label} filter`}
        >
          {showSearch && (
            <div className="relative mb-1.5">
              <Search
                size={14}
                className="pointer-events-none absolute top-1/2 left-2 -translate-y-1/2 text-gray-400"
                aria-hidden
              />
              <label htmlFor={searchId} className="sr-only">
                Search {label}
              </label>
              <input
                id={searchId}
                value={query}
                placeholder="Search…"
                autoFocus
                onChange={(e) => {
                  setQuery(e.target.value);
                  onSearchChange?.(e.target.value);
                }}
                className="h-8 w-full rounded-md border border-gray-300 pr-2 pl-7 text-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none"
              />
            </div>
          )}
          {body}
          {active.length > 0 && (
            <div className="mt-1 flex justify-end border-t border-gray-100 pt-1.5">
              <button
                type="button"
                onClick={() => onChange({})}
                className="rounded px-2 py-1 text-xs text-gray-600 hover:bg-gray-100"
              >
                Clear
              </button>
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The filter bound to one URL parameter (encodeTriState); changing it resets pagination. */
export function UrlTriStateFilter({
  paramKey,
  ...props
}: Omit<TriStateFilterProps, 'value' | 'onChange'> & { paramKey: string }) {
  const [value, setValue] = useTriStateParam(paramKey);
  return <TriStateFilter {...props} value={value} onChange={setValue} />;
}
