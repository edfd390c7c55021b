import { useMemo } from 'react';
import { RotateCw } from 'lucide-react';
import { TriStateFilter, UrlTriStateFilter } from '#web/components/filters/index.ts';
import { JOB_RESOURCE_TYPES, JOB_STATUSES, JobHistoryTable, useJobHistory } from '#web/components/job-history/index.ts';
import { UrlTimeRangePicker, resolveTimeRange, useTimeRangeParams } from '#web/components/time-range/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { usePaginationParams, useSearchParamState, useSortingParams, useTriStateParam } from '#web/lib/url-state.ts';
import { useJobNames } from '../api/use-job-names.ts';
import {
  JOBS_DEFAULT_RANGE,
  JOBS_DEFAULT_SORT,
  JOBS_PAGE_SIZE,
  RUN_DURATION_OPTIONS,
  useJobStatusParam,
} from '../components/job-filters.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

const STATUS_OPTIONS = JOB_STATUSES.map((s) => ({ value: s }));
const TYPE_OPTIONS = JOB_RESOURCE_TYPES.map((t) => ({ value: t.value, label: t.label }));

/**
 * /settings/jobs: every engine run. URL state (seed 002 section 2.10): from, to, rangeType,
 * display, range, timeRange, pageIndex, pageSize, sortBy, sortOrder, name, status, resource_type,
 * runDuration. Defaults: last 2 days, 50 a page, newest first, SUCCESS excluded.
 */
export function JobsPage() {
  const { range } = useTimeRangeParams({ defaultRange: JOBS_DEFAULT_RANGE });
  const { pageIndex, pageSize, setPagination } = usePaginationParams({ defaultPageSize: JOBS_PAGE_SIZE });
  const { sorting, setSorting } = useSortingParams({ defaultSort: JOBS_DEFAULT_SORT });
  const [name] = useTriStateParam('name');
  const [resourceType] = useTriStateParam('resource_type');
  const [status, setStatus] = useJobStatusParam();
  const [runDuration, setRunDuration] = useSearchParamState('runDuration');
  const names = useJobNames();

  // Resolved once per URL change so "now" does not move on every render.
  const span = useMemo(() => (range ? resolveTimeRange(range) : undefined), [range]);
  const sort = sorting[0] ?? JOBS_DEFAULT_SORT;
  const jobs = useJobHistory({
    name,
    resourceType,
    status,
    minDurationMs: Number(runDuration) || undefined,
    from: span?.from,
    to: span?.to,
    pageIndex,
    pageSize,
    sortBy: sort.id,
    sortOrder: sort.desc ? 'desc' : 'asc',
  });

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Jobs History">
        <span className="font-semibold text-gray-900">Jobs History</span>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Refresh"
          onClick={() => void jobs.refetch()}
          disabled={jobs.isFetching}
        >
          <RotateCw size={15} className={jobs.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
      </PageTitle>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Filters">
        <UrlTriStateFilter
          label="Job Name"
          paramKey="name"
          options={(names.data ?? []).map((n) => ({ value: n.name }))}
          isLoading={names.isPending}
          searchable
        />
        <UrlTriStateFilter label="Resource Type" paramKey="resource_type" options={TYPE_OPTIONS} />
        <TriStateFilter label="Status" options={STATUS_OPTIONS} value={status} onChange={setStatus} />
        <label className="inline-flex items-center gap-1.5 text-sm text-gray-600">
          <span className="sr-only">Duration</span>
          <select
            aria-label="Duration"
            value={runDuration}
            onChange={(e) => setRunDuration(e.target.value || null, { resetPage: true })}
            className="h-9 rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-700 shadow-sm"
          >
            {RUN_DURATION_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <div className="ml-auto">
          <UrlTimeRangePicker defaultRange={JOBS_DEFAULT_RANGE} showFuture={false} />
        </div>
      </div>
      {jobs.error && !jobs.data ? (
        <ErrorAlert error={jobs.error} />
      ) : (
        <JobHistoryTable
          rows={jobs.data?.rows ?? []}
          total={jobs.data?.total ?? 0}
          isLoading={jobs.isFetching}
          pageIndex={pageIndex}
          pageSize={pageSize}
          onPaginationChange={setPagination}
          sorting={sorting}
          onSortingChange={setSorting}
        />
      )}
    </div>
  );
}
