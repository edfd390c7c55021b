import { useMemo, useState } from 'react';
import type { TriStateMap } from '@watchdeck/core';
import { TriStateFilter } from '../filters/index.ts';
import { JOB_STATUSES } from './job-status.tsx';
import { JobHistoryTable } from './job-history-table.tsx';
import { useJobHistory } from './use-job-history.ts';
import { TimeRangePicker, pastRange, resolveTimeRange, type TimeRange } from '../time-range/index.ts';
import type { SortParam } from '#web/lib/url-state.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';

/** The per-resource tab's defaults (seed 002 section 9): last 2 days, 150 a page, SUCCESS excluded. */
const DEFAULT_RANGE = pastRange('2d');
const PAGE_SIZE = 150;
const DEFAULT_STATUS: TriStateMap = { SUCCESS: -1 };
const DEFAULT_SORT: SortParam[] = [{ id: 'created_at', desc: true }];
const STATUS_OPTIONS = JOB_STATUSES.map((s) => ({ value: s }));

/**
 * Job History tab of a settings resource or an integration: its runs (resource_id equals the
 * resource's id).
 */
export function ResourceJobHistory({ resourceId }: { resourceId: string }) {
  const [range, setRange] = useState<TimeRange>(DEFAULT_RANGE);
  const [status, setStatus] = useState<TriStateMap>(DEFAULT_STATUS);
  const [paging, setPaging] = useState({ pageIndex: 0, pageSize: PAGE_SIZE });
  const [sorting, setSorting] = useState<SortParam[]>(DEFAULT_SORT);
  const span = useMemo(() => resolveTimeRange(range), [range]);
  const sort = sorting[0] ?? DEFAULT_SORT[0];
  const jobs = useJobHistory({
    resourceId,
    status,
    from: span?.from,
    to: span?.to,
    ...paging,
    sortBy: sort.id,
    sortOrder: sort.desc ? 'desc' : 'asc',
  });
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <TriStateFilter
          label="Status"
          options={STATUS_OPTIONS}
          value={status}
          onChange={(s) => {
            setStatus(s);
            setPaging((p) => ({ ...p, pageIndex: 0 }));
          }}
        />
        <div className="ml-auto">
          <TimeRangePicker
            value={range}
            showFuture={false}
            onChange={(r) => {
              setRange(r);
              setPaging((p) => ({ ...p, pageIndex: 0 }));
            }}
          />
        </div>
      </div>
      {jobs.error && !jobs.data ? (
        <ErrorAlert error={jobs.error} />
      ) : (
        <JobHistoryTable
          rows={jobs.data?.rows ?? []}
          total={jobs.data?.total ?? 0}
          isLoading={jobs.isFetching}
          pageIndex={paging.pageIndex}
          pageSize={paging.pageSize}
          onPaginationChange={setPaging}
          sorting={sorting}
          onSortingChange={(s) => {
            setSorting(s);
            setPaging((p) => ({ ...p, pageIndex: 0 }));
          }}
          hideResource
        />
      )}
    </div>
  );
}
