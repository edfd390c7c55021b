import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { usePaginationParams, useSearchParamState, useUpdateSearchParams } from '#web/lib/url-state.ts';
import { useSendHistory } from '../api/use-send-history.ts';
import type { SendHistoryRow } from '../api/types.ts';
import { FilterSelect } from '../components/filter-select.tsx';
import { NotificationsHeader } from '../components/notifications-header.tsx';
import { SendDetailModal } from '../components/send-detail-modal.tsx';
import { SendStatusBadge } from '../components/status-badge.tsx';
import { RESOURCE_TYPE_LABELS, SEND_RESOURCE_TYPES, SEND_STATUSES, SEND_STATUS_LABELS } from '../lib/constants.ts';

const EMPTY = 'No notifications have been sent yet';
const EMPTY_FILTERED = 'No notifications match these filters';

const col = dataTableColumns<SendHistoryRow>();
const columns = col.columns([
  col.accessor('created_at', {
    header: 'Age',
    meta: { className: 'whitespace-nowrap' },
    cell: (c) => <RelativeTime at={c.getValue()} />,
  }),
  col.accessor('status', { header: 'Status', cell: (c) => <SendStatusBadge status={c.getValue()} /> }),
  col.accessor('source_event', {
    header: 'Event',
    cell: (c) => <span className="font-mono text-xs whitespace-nowrap text-gray-700">{c.getValue()}</span>,
  }),
  col.accessor((r) => r.resource?.name ?? r.resource_id ?? '', {
    id: 'resource',
    header: 'Resource',
    meta: { className: 'w-full min-w-40' },
    cell: ({ row: { original: r } }) => (
      <span className="break-words text-gray-900">
        {r.resource?.name ?? r.resource_id ?? '—'}
        {r.resource_type && (
          <span className="ml-1.5 text-xs text-gray-500">
            {RESOURCE_TYPE_LABELS[r.resource_type] ?? r.resource_type}
          </span>
        )}
      </span>
    ),
  }),
  col.accessor((r) => r.notification_name ?? '', { id: 'rule', header: 'Rule' }),
  col.accessor((r) => r.person?.name ?? '', { id: 'person', header: 'Person' }),
  col.accessor('count', { header: 'Count', meta: { align: 'right' } }),
  col.accessor('duration_millis', {
    header: 'Duration',
    meta: { align: 'right', className: 'whitespace-nowrap' },
    cell: (c) => formatDuration(c.getValue()),
  }),
]);

/**
 * /notifications: the send history (seed 002 sections 2.15 and 7.6). Paged on the server
 * (pageIndex, pageSize), filtered by status and resourceType, newest first; a row click sets ?id=
 * and opens that send with its body, error and a link to its rule.
 */
export function SendHistoryPage() {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const { pageIndex, pageSize, setPagination } = usePaginationParams();
  const [openId, setOpenId] = useSearchParamState('id');
  const status = params.get('status') ?? '';
  const resourceType = params.get('resourceType') ?? '';
  const list = useSendHistory({
    pageIndex,
    pageSize,
    status: status || undefined,
    resourceType: resourceType || undefined,
  });
  const statusOptions = useMemo(() => SEND_STATUSES.map((s) => ({ value: s, label: SEND_STATUS_LABELS[s] })), []);
  const typeOptions = useMemo(
    () => SEND_RESOURCE_TYPES.map((t) => ({ value: t, label: RESOURCE_TYPE_LABELS[t] ?? t })),
    [],
  );

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <NotificationsHeader title="Notifications" onRefresh={() => void list.refetch()} refreshing={list.isFetching} />
      <div className="flex flex-wrap items-center gap-3" role="search" aria-label="Notification filters">
        <FilterSelect
          label="Status"
          value={status}
          options={statusOptions}
          onChange={(v) => update({ status: v || null }, { resetPage: true })}
        />
        <FilterSelect
          label="Resource type"
          value={resourceType}
          options={typeOptions}
          onChange={(v) => update({ resourceType: v || null }, { resetPage: true })}
        />
      </div>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Notification send history"
          columns={columns}
          data={list.data?.rows ?? []}
          getRowId={(r) => r.id}
          isLoading={list.isFetching}
          onRowClick={(r) => setOpenId(r.id, { push: true })}
          isRowSelected={(r) => r.id === openId}
          emptyMessage={status || resourceType ? EMPTY_FILTERED : EMPTY}
          enableSorting={false}
          pageIndex={pageIndex}
          pageSize={pageSize}
          rowCount={list.data?.total ?? 0}
          onPaginationChange={setPagination}
          className="min-h-0 flex-1"
        />
      )}
      {openId && <SendDetailModal id={openId} onClose={() => setOpenId(null)} />}
    </div>
  );
}
