import { useEffect, useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import dayjs from 'dayjs';
import { LOG_ROW_ESTIMATE_PX, LOG_ROW_OVERSCAN, LOG_TIMESTAMP_FORMAT, type LogLine } from '@watchdeck/core';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { useLocalStorage } from '#web/lib/storage.ts';

/** Seed 001 "/logs": column sizes are stored locally (px); the message takes what is left. */
const SIZES_KEY = 'logs.columnSizes';
const DEFAULT_SIZES = { timestamp: 200, labels: 220 };
type Sizes = typeof DEFAULT_SIZES;
const MIN_WIDTH = 120;
const MAX_WIDTH = 900;
const KEY_STEP = 20;

export function formatLogTime(ts: string): string {
  const d = dayjs(ts);
  return d.isValid() ? d.format(LOG_TIMESTAMP_FORMAT) : ts;
}

/** A drag (or arrow-key) handle on a header's edge that resizes one stored column. */
function ResizeHandle({
  label,
  width,
  grow,
  onResize,
}: {
  label: string;
  width: number;
  /** +1: dragging right widens the column; -1: dragging right narrows it (the handle is on its left) */
  grow: 1 | -1;
  onResize: (width: number) => void;
}) {
  const clamp = (w: number) => Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(w)));
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startX = e.clientX;
    const startWidth = width;
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => onResize(clamp(startWidth + grow * (ev.clientX - startX)));
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    onResize(clamp(width + grow * (e.key === 'ArrowRight' ? KEY_STEP : -KEY_STEP)));
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${label} column`}
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      className="absolute top-0 right-0 h-full w-2 cursor-col-resize touch-none select-none hover:bg-blue-200 focus-visible:bg-blue-300 focus-visible:outline-none"
    />
  );
}

export interface LogTableProps {
  lines: readonly LogLine[];
  selected: ReadonlySet<number>;
  onToggle: (index: number) => void;
  onToggleAll: () => void;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  onEndReached: () => void;
  emptyMessage: ReactNode;
}

/**
 * The log lines: timestamp, message and labels, newest first; rows are virtualised (row estimate
 * 62 px, overscan 10) and the next page is asked for when the last row comes into view. A check
 * box per row selects lines to attach to an incident.
 */
export function LogTable({
  lines,
  selected,
  onToggle,
  onToggleAll,
  loading,
  loadingMore,
  hasMore,
  onEndReached,
  emptyMessage,
}: LogTableProps) {
  const [stored, setSizes] = useLocalStorage<Partial<Sizes>>(SIZES_KEY, DEFAULT_SIZES);
  const sizes: Sizes = { ...DEFAULT_SIZES, ...stored };
  const resize = (key: keyof Sizes) => (width: number) =>
    setSizes((prev) => ({ ...DEFAULT_SIZES, ...prev, [key]: width }));

  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in this render only
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LOG_ROW_ESTIMATE_PX,
    overscan: LOG_ROW_OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const atEnd = lines.length > 0 && lastIndex >= lines.length - 1;
  const requestedAt = useRef(-1);
  useEffect(() => {
    if (atEnd && hasMore && !loadingMore && requestedAt.current !== lines.length) {
      requestedAt.current = lines.length;
      onEndReached();
    }
  }, [atEnd, hasMore, loadingMore, onEndReached, lines.length]);

  const paddingTop = items.length ? items[0].start : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const allSelected = lines.length > 0 && selected.size === lines.length;
  const th =
    'relative border-b border-gray-200 px-3 py-2 text-left text-xs font-semibold tracking-wide text-gray-500 uppercase';

  return (
    <div
      ref={scrollRef}
      className="min-h-0 flex-1 overflow-auto rounded-lg border border-gray-200 bg-white"
      data-testid="log-scroll"
    >
      <table className="w-full table-fixed border-collapse" aria-label="Log lines" aria-busy={loading || undefined}>
        <colgroup>
          <col style={{ width: 36 }} />
          <col style={{ width: sizes.timestamp }} data-column="timestamp" />
          <col />
          <col style={{ width: sizes.labels }} data-column="labels" />
        </colgroup>
        <thead className="sticky top-0 z-10 bg-gray-50">
          <tr>
            <th scope="col" className={th}>
              <input
                type="checkbox"
                aria-label="Select all lines"
                checked={allSelected}
                disabled={!lines.length}
                onChange={onToggleAll}
              />
            </th>
            <th scope="col" className={th}>
              Timestamp
              <ResizeHandle label="Timestamp" width={sizes.timestamp} grow={1} onResize={resize('timestamp')} />
            </th>
            <th scope="col" className={th}>
              Message
              <ResizeHandle label="Labels" width={sizes.labels} grow={-1} onResize={resize('labels')} />
            </th>
            <th scope="col" className={th}>
              Labels
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && (
            <tr>
              <td colSpan={4} className="px-3 py-12 text-center text-sm text-gray-500">
                {loading ? (
                  <span className="inline-flex items-center gap-2">
                    <Spinner /> Loading…
                  </span>
                ) : (
                  emptyMessage
                )}
              </td>
            </tr>
          )}
          {paddingTop > 0 && (
            <tr aria-hidden>
              <td colSpan={4} style={{ height: paddingTop, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const line = lines[item.index];
            const isSelected = selected.has(item.index);
            return (
              <tr
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                aria-selected={isSelected}
                className={cn('border-b border-gray-100 align-top', isSelected ? 'bg-yellow-50' : 'bg-white')}
              >
                <td className="px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label={`Select line ${item.index + 1}`}
                    checked={isSelected}
                    onChange={() => onToggle(item.index)}
                  />
                </td>
                <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-gray-600">
                  <time dateTime={line.timestamp}>{formatLogTime(line.timestamp)}</time>
                </td>
                <td className="px-3 py-2 font-mono text-xs break-words whitespace-pre-wrap text-gray-900">
                  {line.message}
                </td>
                <td className="px-3 py-2">
                  <ul className="flex flex-wrap gap-1" aria-label="Labels">
                    {Object.entries(line.labels).map(([k, v]) => (
                      <li
                        key={k}
                        className="max-w-full truncate rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] text-gray-700"
                        title={`${k}=${v}`}
                      >
                        {k}={v}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={4} style={{ height: paddingBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
      {loadingMore && (
        <div className="flex items-center justify-center gap-2 py-2 text-xs text-gray-500">
          <Spinner size={14} /> Loading more…
        </div>
      )}
    </div>
  );
}
