import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Pencil, Play, RotateCw } from 'lucide-react';
import { AccessGuard } from '#web/components/auth/index.ts';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { RunPlaybookDialog } from '#web/components/playbook-run/index.ts';
import {
  UrlTimeRangePicker,
  pastRange,
  resolveTimeRange,
  useTimeRangeParams,
} from '#web/components/time-range/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { formatDateTime, formatDuration, formatRelative } from '#web/lib/format.ts';
import { usePaginationParams, useSearchParamState, useSortingParams } from '#web/lib/url-state.ts';
import { usePlaybooks } from '../api/use-playbooks.ts';
import { useRuns } from '../api/use-runs.ts';
import { RUN_STATUSES, type RunRow } from '../api/types.ts';
import { RunStatusBadge, statusLabel } from '../components/run-status.tsx';
import { SpecEditorDialog } from '../components/spec-editor-dialog.tsx';

/** Seed 002 section 9: runs default to the last 7 days, 50 a page; newest first. */
const RUNS_DEFAULT_RANGE = pastRange('7d');
const RUNS_PAGE_SIZE = 50;
const RUNS_DEFAULT_SORT = { id: 'created_at', desc: true };

const col = dataTableColumns<RunRow>();
const columns = col.columns([
  col.accessor('playbook_title', {
    header: 'Playbook',
    cell: ({ row: { original: r } }) => (
      <Link to={`/playbooks/runs/${r.id}`} className="font-medium text-blue-700 hover:underline">
        {r.playbook_title || r.playbook_name}
      </Link>
    ),
  }),
  col.accessor('resource_name', { header: 'Resource', enableSorting: false, cell: (c) => c.getValue() ?? '' }),
  col.accessor('status', { header: 'Status', cell: (c) => <RunStatusBadge status={c.getValue()} /> }),
  col.accessor('trigger_source', { header: 'Trigger', enableSorting: false }),
  col.accessor('duration_millis', {
    header: 'Duration',
    meta: { align: 'right' },
    cell: (c) => formatDuration(c.getValue()),
  }),
  col.accessor('created_at', {
    header: 'Created',
    cell: (c) => <time title={formatDateTime(c.getValue())}>{formatRelative(c.getValue())}</time>,
  }),
]);

const selectClass = 'h-9 rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-700 shadow-sm';

/**
 * /playbooks/runs (seed 002 section 2.16): filtered by playbook, status and a time range (last 7
 * days by default), paged and sorted by the server. With one playbook chosen, Edit Playbook and
 * Run Playbook appear. check_id, config_id and component_id narrow it to one resource's runs.
 */
export function RunsPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { range } = useTimeRangeParams({ defaultRange: RUNS_DEFAULT_RANGE });
  const { pageIndex, pageSize, setPagination } = usePaginationParams({ defaultPageSize: RUNS_PAGE_SIZE });
  const { sorting, setSorting } = useSortingParams({ defaultSort: RUNS_DEFAULT_SORT });
  const [playbookId, setPlaybookId] = useSearchParamState('playbook');
  const [status, setStatus] = useSearchParamState('status');
  const playbooks = usePlaybooks();
  const [dialog, setDialog] = useState<'edit' | 'run' | undefined>();
  const span = useMemo(() => (range ? resolveTimeRange(range) : undefined), [range]);
  const sort = sorting[0] ?? RUNS_DEFAULT_SORT;
  const runs = useRuns({
    playbookId: playbookId || undefined,
    status: status || undefined,
    checkId: params.get('check_id') ?? undefined,
    configId: params.get('config_id') ?? undefined,
    componentId: params.get('component_id') ?? undefined,
    from: span?.from,
    to: span?.to,
    pageIndex,
    pageSize,
    sortBy: sort.id,
    sortOrder: sort.desc ? 'desc' : 'asc',
  });
  const selected = playbooks.data?.find((p) => p.id === playbookId);

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Playbook Runs">
        <Link to="/playbooks" className="text-gray-500 hover:text-gray-800">
          Playbooks
        </Link>
        <span className="text-gray-400">/</span>
        <span className="font-semibold text-gray-900">Runs</span>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Refresh"
          onClick={() => void runs.refetch()}
          disabled={runs.isFetching}
        >
          <RotateCw size={15} className={runs.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
      </PageTitle>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Filters">
        <select
          aria-label="Playbook"
          value={playbookId}
          onChange={(e) => setPlaybookId(e.target.value || null, { resetPage: true })}
          className={selectClass}
        >
          <option value="">All playbooks</option>
          {(playbooks.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.title || p.name}
            </option>
          ))}
        </select>
        <select
          aria-label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value || null, { resetPage: true })}
          className={`${selectClass} capitalize`}
        >
          <option value="">All statuses</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
        {selected && (
          <>
            <AccessGuard resource="playbooks" action="write">
              <Button variant="secondary" size="sm" onClick={() => setDialog('edit')}>
                <Pencil size={14} aria-hidden /> Edit Playbook
              </Button>
            </AccessGuard>
            <AccessGuard resource="playbook_runs" action="write">
              <Button variant="secondary" size="sm" onClick={() => setDialog('run')}>
                <Play size={14} aria-hidden /> Run Playbook
              </Button>
            </AccessGuard>
          </>
        )}
        <div className="ml-auto">
          <UrlTimeRangePicker defaultRange={RUNS_DEFAULT_RANGE} showFuture={false} />
        </div>
      </div>
      {runs.error && !runs.data ? (
        <ErrorAlert error={runs.error} />
      ) : (
        <DataTable
          label="Playbook runs"
          columns={columns}
          data={runs.data?.rows ?? []}
          getRowId={(r) => r.id}
          isLoading={runs.isFetching}
          manualSorting
          sorting={sorting}
          onSortingChange={setSorting}
          pageIndex={pageIndex}
          pageSize={pageSize}
          rowCount={runs.data?.total ?? 0}
          onPaginationChange={setPagination}
          onRowClick={(r) => void navigate(`/playbooks/runs/${r.id}`)}
          className="min-h-0 flex-1"
        />
      )}
      {selected && dialog === 'edit' && (
        <SpecEditorDialog playbook={selected} open onOpenChange={(o) => !o && setDialog(undefined)} />
      )}
      {selected && dialog === 'run' && (
        <RunPlaybookDialog playbook={selected} open onOpenChange={(o) => !o && setDialog(undefined)} />
      )}
    </div>
  );
}
