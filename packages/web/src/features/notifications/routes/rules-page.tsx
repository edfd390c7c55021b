import { useState } from 'react';
import { Plus } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { useCan } from '#web/lib/session.tsx';
import { useSearchParamState } from '#web/lib/url-state.ts';
import { useRules } from '../api/use-rules.ts';
import type { RuleRow } from '../api/types.ts';
import { NotificationsHeader } from '../components/notifications-header.tsx';
import { Recipient } from '../components/recipient.tsx';
import { RuleModal } from '../components/rule-modal.tsx';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';

const EMPTY = 'No notification rules yet';

const col = dataTableColumns<RuleRow>();
const columns = col.columns([
  col.accessor((r) => r.title || r.name || '', {
    id: 'title',
    header: 'Title',
    meta: { className: 'min-w-44' },
    cell: (c) => <span className="font-medium break-words text-gray-900">{c.getValue()}</span>,
  }),
  col.accessor((r) => r.events.join(', '), {
    id: 'events',
    header: 'Events',
    enableSorting: false,
    meta: { className: 'w-full min-w-48' },
    cell: ({ row: { original: r } }) => (
      <span className="flex flex-wrap gap-1">
        {r.events.map((e) => (
          <span key={e} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] text-gray-700">
            {e}
          </span>
        ))}
      </span>
    ),
  }),
  col.display({
    id: 'recipient',
    header: 'Recipient',
    cell: ({ row: { original: r } }) => <Recipient rule={r} />,
  }),
  col.accessor('sent', { header: 'Sent', meta: { align: 'right' } }),
  col.accessor('failed', {
    header: 'Failed',
    meta: { align: 'right' },
    cell: (c) => <span className={c.getValue() ? 'font-medium text-red-700' : undefined}>{c.getValue()}</span>,
  }),
  col.accessor('pending', { header: 'Pending', meta: { align: 'right' } }),
  col.accessor('avg_duration_ms', {
    header: 'Avg',
    meta: { align: 'right', className: 'whitespace-nowrap' },
    cell: (c) => formatDuration(c.getValue()),
  }),
  col.accessor((r) => r.error ?? r.most_common_error ?? '', {
    id: 'last_error',
    header: 'Last error',
    enableSorting: false,
    meta: { className: 'max-w-64' },
    cell: ({ row: { original: r } }) => {
      const text = r.error ?? r.most_common_error;
      if (!text) return null;
      return (
        <Tooltip content={<span className="block max-w-md break-words whitespace-pre-wrap">{text}</span>}>
          <span className="line-clamp-2 text-xs break-words text-red-700" tabIndex={-1}>
            {text}
            {r.error_at && (
              <>
                {' '}
                <RelativeTime at={r.error_at} className="text-gray-500" />
              </>
            )}
          </span>
        </Tooltip>
      );
    },
  }),
  col.accessor('source', { header: 'Source' }),
  col.accessor('updated_at', {
    header: 'Updated',
    meta: { className: 'whitespace-nowrap' },
    cell: (c) => <RelativeTime at={c.getValue()} />,
  }),
]);

/**
 * /notifications/rules (seed 002 section 2.15): the rules with their counters and last error,
 * the create dialog (notifications write) and the edit dialog opened by a row click, which sets
 * ?id= so the send history's rule link lands on it.
 */
export function RulesPage() {
  const list = useRules();
  const canWrite = useCan('notifications', 'write');
  const [openId, setOpenId] = useSearchParamState('id');
  const [adding, setAdding] = useState(false);
  const editing = openId ? list.data?.find((r) => r.id === openId) : undefined;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <NotificationsHeader
        title="Notification Rules"
        onRefresh={() => void list.refetch()}
        refreshing={list.isFetching}
      >
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <Plus size={14} aria-hidden /> Add Rule
          </Button>
        )}
      </NotificationsHeader>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Notification rules"
          columns={columns}
          data={list.data ?? []}
          getRowId={(r) => r.id}
          isLoading={list.isFetching}
          onRowClick={(r) => setOpenId(r.id, { push: true })}
          isRowSelected={(r) => r.id === openId}
          emptyMessage={EMPTY}
          defaultSorting={[{ id: 'updated_at', desc: true }]}
          className="min-h-0 flex-1"
        />
      )}
      {openId && list.data && !editing && (
        <p role="status" className="text-sm text-gray-500">
          {NOTIFICATION_MESSAGES.noResources}
        </p>
      )}
      <RuleModal rule={null} open={adding} onClose={() => setAdding(false)} />
      {editing && <RuleModal rule={editing} open onClose={() => setOpenId(null)} />}
    </div>
  );
}
