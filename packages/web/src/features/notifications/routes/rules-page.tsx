import { useState } from 'react';
import { Lock, Plus } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { useCan } from '#web/lib/session.tsx';
import { useSearchParamState } from '#web/lib/url-state.ts';
import { useRules } from '../api/use-rules.ts';
import type { RuleRow } from '../api/types.ts';
import { NotificationsHeader } from '../components/notifications-header.tsx';
import { Recipient } from '../components/recipient.tsx';
import { RuleModal } from '../components/rule-modal.tsx';
import { isUiSource } from '../lib/constants.ts';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';

const EMPTY = 'No notification rules yet';

const col = dataTableColumns<RuleRow>();
/** What did not come from the console is marked (it is read-only there). */
function SourceBadge({ source }: { source: string | null }) {
  if (isUiSource(source)) return null;
  return (
    <span className="ml-1.5 inline-flex items-center gap-1 rounded bg-amber-50 px-1.5 py-0.5 align-middle text-[11px] font-medium text-amber-800">
      <Lock size={10} aria-hidden />
      {source}
    </span>
  );
}

/** Sent, failed and pending sends, one a line, with the average time a send took. */
function Counters({ rule: r }: { rule: RuleRow }) {
  return (
    <span className="flex flex-col items-end text-xs whitespace-nowrap tabular-nums">
      <span className="text-green-700">{r.sent} sent</span>
      <span className={r.failed ? 'font-medium text-red-700' : 'text-gray-500'}>{r.failed} failed</span>
      <span className={r.pending ? 'text-amber-700' : 'text-gray-500'}>{r.pending} pending</span>
      {r.avg_duration_ms !== null && <span className="text-gray-500">avg {formatDuration(r.avg_duration_ms)}</span>}
    </span>
  );
}

const columns = col.columns([
  col.accessor((r) => r.title || r.name || '', {
    id: 'title',
    header: 'Title',
    meta: { className: 'min-w-40' },
    cell: ({ row: { original: r } }) => (
      <span className="break-words text-gray-900">
        <span className="font-medium">{r.title || r.name}</span>
        <SourceBadge source={r.source} />
      </span>
    ),
  }),
  col.accessor((r) => r.events.join(', '), {
    id: 'events',
    header: 'Events',
    enableSorting: false,
    meta: { className: 'min-w-44' },
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
  col.accessor('sent', {
    id: 'sends',
    header: 'Sends',
    meta: { align: 'right' },
    cell: ({ row: { original: r } }) => <Counters rule={r} />,
  }),
  col.accessor((r) => r.error ?? r.most_common_error ?? '', {
    id: 'last_error',
    header: 'Last error',
    enableSorting: false,
    meta: { className: 'w-full min-w-40' },
    cell: ({ row: { original: r } }) => {
      const text = r.error ?? r.most_common_error;
      if (!text) return null;
      return (
        <span className="line-clamp-2 text-xs break-words text-red-700" title={text}>
          {text}
          {r.error_at && (
            <>
              {' '}
              <RelativeTime at={r.error_at} className="text-gray-500" />
            </>
          )}
        </span>
      );
    },
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
          defaultSorting={[{ id: 'title', desc: false }]}
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
