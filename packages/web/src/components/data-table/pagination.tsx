import { useId, useState, type FormEvent } from 'react';
import { PAGE_SIZES } from '@watchdeck/core';
import { Button } from '../ui/button.tsx';

export interface PaginationBarProps {
  /** 0-based. */
  pageIndex: number;
  pageCount: number;
  pageSize: number;
  pageSizes?: readonly number[];
  onPageChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  /** Total rows when known, shown as a count. */
  rowCount?: number;
  disabled?: boolean;
}

/** 'Page x of y', go to page (minimum 1), page size, <<, Previous, Next, >>. */
export function PaginationBar({
  pageIndex,
  pageCount,
  pageSize,
  pageSizes = PAGE_SIZES,
  onPageChange,
  onPageSizeChange,
  rowCount,
  disabled,
}: PaginationBarProps) {
  const pages = Math.max(pageCount, 1);
  const current = Math.min(pageIndex, pages - 1);
  const canPrevious = current > 0;
  const canNext = current < pages - 1;
  const goToId = useId();
  const sizeId = useId();
  const noteId = useId();
  const [goTo, setGoTo] = useState('');
  // what became of a page number outside 1..pages (clamped), until the next one is typed
  const [note, setNote] = useState<string | null>(null);
  const sizes = pageSizes.includes(pageSize) ? pageSizes : [...pageSizes, pageSize].sort((a, b) => a - b);

  // The form does not use the browser's own min/max validation (noValidate): Enter on 0 or 999
  // did nothing at all. The number is clamped to the page range and the clamp is said.
  const submitGoTo = (e: FormEvent) => {
    e.preventDefault();
    if (goTo.trim() === '') return;
    const n = Math.floor(Number(goTo));
    if (!Number.isFinite(n)) {
      setNote(`Pages go from 1 to ${pages}`);
      return;
    }
    const page = Math.min(Math.max(n, 1), pages);
    setNote(page === n ? null : `There is no page ${goTo.trim()}: pages go from 1 to ${pages}`);
    onPageChange(page - 1);
    setGoTo('');
  };

  return (
    <div
      className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 border-t border-gray-200 bg-white px-3 py-2 text-sm text-gray-600"
      data-testid="pagination"
    >
      <div className="flex items-center gap-4">
        <span aria-live="polite" className="font-medium text-gray-700">{`Page ${current + 1} of ${pages}`}</span>
        {rowCount !== undefined && (
          <span className="text-gray-400">
            {rowCount.toLocaleString()} {rowCount === 1 ? 'row' : 'rows'}
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <form onSubmit={submitGoTo} noValidate className="flex items-center gap-1.5">
          <label htmlFor={goToId} className="whitespace-nowrap">
            Go to page
          </label>
          <input
            id={goToId}
            type="number"
            min={1}
            max={pages}
            value={goTo}
            placeholder={String(current + 1)}
            onChange={(e) => {
              setGoTo(e.target.value);
              setNote(null);
            }}
            onBlur={(e) => e.currentTarget.form?.requestSubmit()}
            disabled={disabled}
            aria-describedby={note ? noteId : undefined}
            className="h-8 w-16 rounded-md border border-gray-300 px-2 text-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none"
          />
          {note && (
            <span id={noteId} role="status" className="text-xs text-amber-700">
              {note}
            </span>
          )}
        </form>
        <div className="flex items-center gap-1.5">
          <label htmlFor={sizeId} className="whitespace-nowrap">
            Page size
          </label>
          <select
            id={sizeId}
            value={pageSize}
            disabled={disabled}
            onChange={(e) => onPageSizeChange(Number(e.target.value))}
            className="h-8 rounded-md border border-gray-300 bg-white px-2 text-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none"
          >
            {sizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-1">
          <Button size="sm" onClick={() => onPageChange(0)} disabled={disabled || !canPrevious} title="First page">
            {'<<'}
          </Button>
          <Button size="sm" onClick={() => onPageChange(current - 1)} disabled={disabled || !canPrevious}>
            Previous
          </Button>
          <Button size="sm" onClick={() => onPageChange(current + 1)} disabled={disabled || !canNext}>
            Next
          </Button>
          <Button size="sm" onClick={() => onPageChange(pages - 1)} disabled={disabled || !canNext} title="Last page">
            {'>>'}
          </Button>
        </div>
      </div>
    </div>
  );
}
