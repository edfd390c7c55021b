import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable, dataTableColumns, type DataTablePagination } from '../data-table/index.ts';
import type { SortParam } from '#web/lib/url-state.ts';
import { formatDateTime, formatDuration, formatRelative } from '#web/lib/format.ts';
import { useLinkTo } from '#web/lib/known-routes.tsx';
import { JobStatusBadge } from './job-status.tsx';
import { JobDetailsModal } from './job-details-modal.tsx';
import { initialTab, type JobDetails } from './job-details.ts';

/** A row of the job_histories view. */
export interface JobHistoryRow {
  id: string;
  name: string;
  resource_id: string | null;
  resource_type: string | null;
  resource_name: string | null;
  agent: { id: string; name: string } | null;
  status: string;
  time_start: string;
  duration_millis: number | null;
  success_count: number;
  error_count: number;
  created_at: string;
  details: JobDetails | null;
}

/** Resource types the Resource Type filter offers (seed 002 section 2.10). */
export const JOB_RESOURCE_TYPES = [
  { value: 'canary', label: 'Canary' },
  { value: 'topology', label: 'Topology' },
  { value: 'config_scraper', label: 'Catalog Scraper' },
] as const;

/** Where a resource of a job lives in the app (seed 002 section 2.1 "Links out of these areas"). */
function resourceLink(type: string | null, id: string | null): string | undefined {
  if (!id) return undefined;
  switch (type) {
    case 'canary':
      return `/settings/canaries/${id}`;
    case 'config_scraper':
    case 'catalog_scraper':
      return `/catalog/scrapers/${id}`;
    case 'topology':
      return `/settings/topologies/${id}`;
    case 'agent':
      return `/settings/agents?id=${id}`;
    default:
      return undefined;
  }
}

/** The resource a job ran on, linked when its screen exists. */
function ResourceCell({ row: r }: { row: JobHistoryRow }) {
  const to = useLinkTo()(resourceLink(r.resource_type, r.resource_id));
  const text = r.resource_name ?? r.resource_id ?? '';
  return (
    <span className="flex flex-col">
      {to ? (
        <Link to={to} onClick={(e) => e.stopPropagation()} className="text-blue-700 hover:underline">
          {text}
        </Link>
      ) : (
        <span>{text}</span>
      )}
      {r.resource_type && <span className="text-xs text-gray-500">{r.resource_type}</span>}
    </span>
  );
}

const col = dataTableColumns<JobHistoryRow>();

const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (c) => <span className="font-medium text-gray-900">{c.getValue()}</span>,
  }),
  col.accessor('resource_name', {
    header: 'Resource',
    enableSorting: false,
    cell: ({ row: { original: r } }) => <ResourceCell row={r} />,
  }),
  col.accessor('agent', { header: 'Agent', enableSorting: false, cell: (c) => c.getValue()?.name ?? '' }),
  col.accessor('status', { header: 'Status', cell: (c) => <JobStatusBadge status={c.getValue()} /> }),
  col.accessor('duration_millis', {
    header: 'Duration',
    meta: { align: 'right' },
    cell: (c) => formatDuration(c.getValue()),
  }),
  col.accessor('success_count', { header: 'Success', meta: { align: 'right' } }),
  col.accessor('error_count', {
    header: 'Errors',
    meta: { align: 'right' },
    cell: (c) => <span className={c.getValue() ? 'font-medium text-red-700' : undefined}>{c.getValue()}</span>,
  }),
  col.accessor('time_start', {
    header: 'Started',
    cell: (c) => <time title={formatDateTime(c.getValue())}>{formatRelative(c.getValue())}</time>,
  }),
]);

export interface JobHistoryTableProps {
  rows: readonly JobHistoryRow[];
  total: number;
  isLoading?: boolean;
  pageIndex: number;
  pageSize: number;
  onPaginationChange: (next: DataTablePagination) => void;
  sorting: SortParam[];
  onSortingChange: (next: SortParam[]) => void;
  /** Hide the Resource column (the per-resource Job History tab). */
  hideResource?: boolean;
  emptyMessage?: string;
}

/** Job runs, paged and sorted on the server; a row with details opens the details modal. */
export function JobHistoryTable(props: JobHistoryTableProps) {
  const [selected, setSelected] = useState<JobHistoryRow | undefined>();
  return (
    <>
      <DataTable
        label="Job history"
        columns={columns}
        data={props.rows}
        getRowId={(r) => r.id}
        isLoading={props.isLoading}
        hiddenColumns={props.hideResource ? ['resource_name'] : undefined}
        manualSorting
        sorting={props.sorting}
        onSortingChange={props.onSortingChange}
        pageIndex={props.pageIndex}
        pageSize={props.pageSize}
        rowCount={props.total}
        onPaginationChange={props.onPaginationChange}
        onRowClick={(r) => initialTab(r.details) && setSelected(r)}
        isRowSelected={(r) => r.id === selected?.id}
        emptyMessage={props.emptyMessage}
        className="min-h-0 flex-1"
      />
      <JobDetailsModal
        details={selected?.details}
        title={selected ? `${selected.name}${selected.resource_name ? ` · ${selected.resource_name}` : ''}` : ''}
        open={!!selected}
        onOpenChange={(open) => !open && setSelected(undefined)}
      />
    </>
  );
}
