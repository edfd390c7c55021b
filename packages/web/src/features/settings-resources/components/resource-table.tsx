import { useState } from 'react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { JobDetailsModal, JobStatusBadge, initialTab } from '#web/components/job-history/index.ts';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { NO_RESOURCES_MESSAGE, rowName, type SettingsRow } from '#web/components/settings-form/index.ts';
import { ResourceIcon } from './resource-icon.tsx';
import { SCRAPER_TYPE_ICONS } from '../resources.ts';

/** A scraper without an icon shows the icon of its spec type (seed 002 section 2.8). */
const specIcon = (spec: SettingsRow['spec']) =>
  Object.keys(spec ?? {})
    .map((k) => SCRAPER_TYPE_ICONS[k])
    .find(Boolean);

const col = dataTableColumns<SettingsRow>();

const When = ({ at }: { at: string | null | undefined }) =>
  at ? (
    <time title={formatDateTime(at)} className="whitespace-nowrap">
      {formatRelative(at)}
    </time>
  ) : null;

/** Tags: the first label as key: value, then '+N more'. */
function TagsCell({ labels }: { labels: Record<string, string> | null | undefined }) {
  const entries = Object.entries(labels ?? {});
  if (!entries.length) return null;
  const [k, v] = entries[0];
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap">
      <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">
        {k}: {v}
      </span>
      {entries.length > 1 && (
        <span className="text-xs text-gray-500" title={entries.map(([a, b]) => `${a}: ${b}`).join('\n')}>
          +{entries.length - 1} more
        </span>
      )}
    </span>
  );
}

function columns(onViewDetails: (row: SettingsRow) => void) {
  return col.columns([
    col.accessor((r) => rowName(r), {
      id: 'name',
      header: 'Name',
      cell: ({ row: { original: r } }) => (
        <span className="inline-flex items-center gap-2 font-medium whitespace-nowrap text-gray-900">
          <ResourceIcon name={r.icon ?? specIcon(r.spec)} />
          {rowName(r)}
        </span>
      ),
    }),
    col.accessor('source', { header: 'Source', cell: (c) => c.getValue() ?? '' }),
    col.accessor('schedule', { header: 'Schedule', cell: (c) => c.getValue() ?? '' }),
    col.accessor('namespace', { header: 'Namespace', cell: (c) => c.getValue() ?? '' }),
    col.accessor('job_status', {
      header: 'Job Status',
      cell: ({ row: { original: r } }) => (
        <span className="inline-flex items-center gap-2">
          <JobStatusBadge status={r.job_status} />
          {initialTab(r.job_details) && (
            <button
              type="button"
              className="text-xs text-blue-700 hover:underline"
              onClick={(e) => {
                e.stopPropagation();
                onViewDetails(r);
              }}
            >
              View details
            </button>
          )}
        </span>
      ),
    }),
    col.accessor('last_runtime', { header: 'Last Run', cell: (c) => <When at={c.getValue()} /> }),
    col.accessor('job_last_failed', { header: 'Last Failed', cell: (c) => <When at={c.getValue()} /> }),
    col.accessor('labels', { header: 'Tags', enableSorting: false, cell: (c) => <TagsCell labels={c.getValue()} /> }),
    col.accessor('created_at', { header: 'Created', cell: (c) => <When at={c.getValue()} /> }),
    col.accessor('updated_at', { header: 'Updated', cell: (c) => <When at={c.getValue()} /> }),
    col.accessor((r) => r.created_by?.name ?? '', { id: 'created_by', header: 'Created By' }),
  ]);
}

export interface ResourceTableProps {
  rows: readonly SettingsRow[];
  isLoading?: boolean;
  hiddenColumns: readonly string[];
  onRowClick: (row: SettingsRow) => void;
}

export function ResourceTable({ rows, isLoading, hiddenColumns, onRowClick }: ResourceTableProps) {
  const [details, setDetails] = useState<SettingsRow | undefined>();
  return (
    <>
      <DataTable
        label="Resources"
        columns={columns(setDetails)}
        data={rows}
        getRowId={(r) => r.id}
        isLoading={isLoading}
        hiddenColumns={hiddenColumns}
        onRowClick={onRowClick}
        emptyMessage={NO_RESOURCES_MESSAGE}
        defaultSorting={[{ id: 'name', desc: false }]}
        className="min-h-0 flex-1"
      />
      <JobDetailsModal
        details={details?.job_details}
        title={details ? `${details.job_name ?? 'Job'} · ${rowName(details)}` : ''}
        open={!!details}
        onOpenChange={(open) => !open && setDetails(undefined)}
      />
    </>
  );
}
