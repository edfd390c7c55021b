import { Link } from 'react-router';
import dayjs from 'dayjs';
import { Plus } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { buttonClass } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useCan } from '#web/lib/session.tsx';
import { useSearchParamState } from '#web/lib/url-state.ts';
import { useSilences } from '../api/use-silences.ts';
import type { SilenceRow } from '../api/types.ts';
import { NotificationsHeader } from '../components/notifications-header.tsx';
import { SilenceForm, targetOf } from '../components/silence-form.tsx';
import { SILENCE_KINDS, isUiSource } from '../lib/constants.ts';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';

const EMPTY = 'No notification silences';
const SHORT = 'YYYY-MM-DD HH:mm';

/** active now, not started yet, or over */
function stateOf(row: SilenceRow, now = Date.now()): 'Active' | 'Scheduled' | 'Expired' {
  if (new Date(row.until).getTime() <= now) return 'Expired';
  return new Date(row.from).getTime() > now ? 'Scheduled' : 'Active';
}
const STATE_CLASS = {
  Active: 'bg-purple-50 text-purple-800 ring-purple-200',
  Scheduled: 'bg-blue-50 text-blue-800 ring-blue-200',
  Expired: 'bg-gray-100 text-gray-600 ring-gray-200',
};

const col = dataTableColumns<SilenceRow>();
const columns = col.columns([
  col.accessor((r) => targetOf(r).resource?.name ?? '', {
    id: 'resource',
    header: 'Resource',
    meta: { className: 'min-w-44' },
    cell: ({ row: { original: r } }) => {
      const t = targetOf(r);
      return (
        <span className="break-words text-gray-900">
          <span className="font-medium">{t.resource?.name}</span>
          <span className="ml-1.5 text-xs text-gray-500">{SILENCE_KINDS.find((k) => k.kind === t.kind)?.label}</span>
          {r.recursive && <span className="ml-1.5 text-xs text-gray-500">(recursive)</span>}
          {!isUiSource(r.source) && (
            <span className="ml-1.5 rounded bg-amber-50 px-1.5 py-0.5 text-[11px] font-medium text-amber-800">
              {r.source}
            </span>
          )}
        </span>
      );
    },
  }),
  col.accessor((r) => stateOf(r), {
    id: 'state',
    header: 'State',
    cell: (c) => (
      <span
        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_CLASS[c.getValue()]}`}
      >
        {c.getValue()}
      </span>
    ),
  }),
  col.accessor('from', {
    header: 'From',
    meta: { className: 'whitespace-nowrap' },
    cell: (c) => <time title={formatDateTime(c.getValue())}>{dayjs(c.getValue()).format(SHORT)}</time>,
  }),
  col.accessor('until', {
    header: 'Until',
    meta: { className: 'whitespace-nowrap' },
    cell: (c) => <time title={formatDateTime(c.getValue())}>{dayjs(c.getValue()).format(SHORT)}</time>,
  }),
  col.accessor('description', {
    header: 'Reason',
    meta: { className: 'w-full min-w-40' },
    cell: (c) => <span className="break-words">{c.getValue()}</span>,
  }),
  col.accessor((r) => r.created_by?.name ?? '', { id: 'created_by', header: 'Created By' }),
]);

/**
 * /notifications/silences (seed 002 section 2.15): the silences that are not deleted; a row
 * click opens the edit dialog (?id=), whose Delete asks 'Delete Notification Silence'; the add
 * button (notifications write) goes to /notifications/silences/add.
 */
export function SilencesPage() {
  const list = useSilences();
  const canWrite = useCan('notifications', 'write');
  const [openId, setOpenId] = useSearchParamState('id');
  const editing = openId ? list.data?.find((r) => r.id === openId) : undefined;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <NotificationsHeader
        title="Notification Silences"
        onRefresh={() => void list.refetch()}
        refreshing={list.isFetching}
      >
        {canWrite && (
          <Link to="/notifications/silences/add" className={buttonClass('primary', 'sm')}>
            <Plus size={14} aria-hidden /> Add Silence
          </Link>
        )}
      </NotificationsHeader>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Notification silences"
          columns={columns}
          data={list.data ?? []}
          getRowId={(r) => r.id}
          isLoading={list.isFetching}
          onRowClick={(r) => setOpenId(r.id, { push: true })}
          isRowSelected={(r) => r.id === openId}
          emptyMessage={EMPTY}
          defaultSorting={[{ id: 'until', desc: true }]}
          className="min-h-0 flex-1"
        />
      )}
      {openId && list.data && !editing && (
        <p role="status" className="text-sm text-gray-500">
          {NOTIFICATION_MESSAGES.noResources}
        </p>
      )}
      {editing && (
        <Modal
          open
          onOpenChange={(o) => !o && setOpenId(null)}
          title="Edit Notification Silence"
          size="medium"
          dismissOnOutsideClick={false}
        >
          <SilenceForm key={editing.id} row={editing} onDone={() => setOpenId(null)} onCancel={() => setOpenId(null)} />
        </Modal>
      )}
    </div>
  );
}
