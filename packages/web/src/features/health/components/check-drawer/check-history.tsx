import { useEffect, useId, useMemo, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '@watchdeck/core';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { inputClass } from '#web/components/forms/index.ts';
import { formatDateTime, formatDuration, formatRelative } from '#web/lib/format.ts';
import { toastError } from '#web/lib/toast.ts';
import { cn } from '#web/lib/cn.ts';
import { useCheckHistory, type HistoryStatusFilter } from '#web/features/health/api/check-history.ts';
import type { CheckStatus } from '#web/features/health/api/types.ts';
import { DURATION_FILTER_PRESETS, parseDurationFilter } from '#web/features/health/lib/duration-filter.ts';
import { timeRangeStart, type HealthTimeRange } from '#web/features/health/lib/time-ranges.ts';
import { HEALTH_DOT_CLASS } from '#web/features/health/lib/status.ts';

const col = dataTableColumns<CheckStatus>();

const COLUMNS = [
  col.accessor('time', {
    header: 'Age',
    enableSorting: false,
    cell: ({ row }) => (
      <span className="inline-flex items-center gap-2 whitespace-nowrap" title={formatDateTime(row.original.time)}>
        <span
          className={cn('h-2 w-2 rounded-full', HEALTH_DOT_CLASS[row.original.status ? 'green' : 'red'])}
          aria-label={row.original.status ? 'healthy' : 'unhealthy'}
        />
        {formatRelative(row.original.time)}
      </span>
    ),
  }),
  col.accessor('duration', {
    header: 'Duration',
    enableSorting: false,
    cell: ({ getValue }) => <span className="tabular-nums">{formatDuration(getValue())}</span>,
    meta: { align: 'right', className: 'w-28' },
  }),
  col.accessor((r) => r.message || r.error || '', {
    id: 'message',
    header: 'Message',
    enableSorting: false,
    cell: ({ row }) => (
      <span className="block max-w-xl truncate" title={row.original.error || row.original.message || ''}>
        {row.original.message && <span>{row.original.message}</span>}
        {row.original.error && (
          <span className={cn('text-red-700', row.original.message && 'ml-2')}>{row.original.error}</span>
        )}
      </span>
    ),
  }),
];

const STATUS_CHOICES: { value: HistoryStatusFilter; label: string }[] = [
  { value: 'healthy', label: 'Healthy' },
  { value: 'unhealthy', label: 'Unhealthy' },
  { value: 'all', label: 'All' },
];

/**
 * History tab: the check's runs in the drawer's time range, newest first, paged on the server,
 * filtered by status and by a minimum duration (All, presets, or a custom 'Nms' / 'Ns').
 */
export function CheckHistory({ checkId, timeRange }: { checkId: string; timeRange: HealthTimeRange }) {
  const statusId = useId();
  const durationId = useId();
  const listId = useId();
  const [status, setStatus] = useState<HistoryStatusFilter>('all');
  const [durationText, setDurationText] = useState('All');
  const [minDurationMs, setMinDurationMs] = useState<number | undefined>(undefined);
  const [page, setPage] = useState({ pageIndex: 0, pageSize: DEFAULT_PAGE_SIZE });
  const parsed = parseDurationFilter(durationText);
  const durationError = parsed.ok ? undefined : parsed.error;

  // The window start moves only when the range changes (a key that changed every render would refetch forever).
  const since = useMemo(() => timeRangeStart(timeRange), [timeRange]);
  const history = useCheckHistory({ checkId, since, status, minDurationMs, ...page });

  useEffect(() => {
    if (history.error) toastError(history.error);
  }, [history.error]);

  const onDuration = (text: string) => {
    setDurationText(text);
    const result = parseDurationFilter(text);
    // only a valid value filters; an invalid one shows the message and leaves the list as it was
    if (result.ok) {
      setMinDurationMs(result.ms);
      setPage((p) => ({ ...p, pageIndex: 0 }));
    }
  };

  const total = history.data?.total ?? 0;
  return (
    <div className="flex min-h-0 flex-col gap-3" data-testid="check-history">
      <div className="flex flex-wrap items-start gap-4">
        <div className="flex items-center gap-2">
          <label htmlFor={statusId} className="text-sm text-gray-600">
            Status
          </label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as HistoryStatusFilter);
              setPage((p) => ({ ...p, pageIndex: 0 }));
            }}
            className={cn(inputClass(), 'w-36')}
          >
            {STATUS_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <div className="flex items-center gap-2">
            <label htmlFor={durationId} className="text-sm text-gray-600">
              Duration
            </label>
            <input
              id={durationId}
              list={listId}
              value={durationText}
              onChange={(e) => onDuration(e.target.value)}
              onFocus={(e) => e.currentTarget.select()}
              placeholder="All, 500ms, 2s…"
              aria-invalid={!!durationError || undefined}
              aria-describedby={durationError ? `${durationId}-error` : undefined}
              className={cn(inputClass(!!durationError), 'w-36')}
            />
            <datalist id={listId}>
              <option value="All" />
              {DURATION_FILTER_PRESETS.map((d) => (
                <option key={d} value={d} />
              ))}
            </datalist>
          </div>
          {durationError && (
            <p id={`${durationId}-error`} role="alert" className="text-xs text-red-600">
              {durationError}
            </p>
          )}
        </div>
      </div>
      <DataTable
        label="Check history"
        columns={COLUMNS}
        data={history.data?.rows ?? []}
        getRowId={(r) => r.time}
        isLoading={history.isFetching}
        enableSorting={false}
        pageIndex={page.pageIndex}
        pageSize={page.pageSize}
        rowCount={total}
        onPaginationChange={setPage}
      />
    </div>
  );
}
