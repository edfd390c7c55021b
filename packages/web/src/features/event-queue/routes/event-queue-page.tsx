import { RotateCw } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { cn } from '#web/lib/cn.ts';
import { useEventQueueSummary, type EventQueueSummaryRow } from '../api/use-event-queue-summary.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

const col = dataTableColumns<EventQueueSummaryRow>();

const When = ({ at }: { at: string | null }) =>
  at ? <time title={formatDateTime(at)}>{formatRelative(at)}</time> : null;

const count = (n: number, alarm: boolean) => (
  <span className={cn('tabular-nums', alarm && n > 0 && 'font-semibold text-red-700')}>{n}</span>
);

const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (c) => <span className="font-medium text-gray-900">{c.getValue()}</span>,
  }),
  col.accessor('consumer', {
    header: 'Consumer',
    cell: (c) => <span className="whitespace-nowrap text-gray-700">{c.getValue()}</span>,
  }),
  col.accessor('pending', { header: 'Pending', meta: { align: 'right' }, cell: (c) => count(c.getValue(), false) }),
  col.accessor('failed', { header: 'Failed', meta: { align: 'right' }, cell: (c) => count(c.getValue(), true) }),
  col.accessor('average_attempts', {
    header: 'Average Attempts',
    meta: { align: 'right' },
    cell: (c) => (
      <span className="tabular-nums">
        {c.getValue() === null
          ? ''
          : Number(c.getValue())
              .toFixed(2)
              .replace(/\.?0+$/, '')}
      </span>
    ),
  }),
  col.accessor('first_failure', { header: 'First Failure', cell: (c) => <When at={c.getValue()} /> }),
  col.accessor('last_failure', { header: 'Last Failure', cell: (c) => <When at={c.getValue()} /> }),
  col.accessor('most_common_error', {
    header: 'Most Common Error',
    enableSorting: false,
    cell: (c) => (
      <span className="line-clamp-2 font-mono text-xs break-all text-gray-700" title={c.getValue() ?? undefined}>
        {c.getValue()}
      </span>
    ),
  }),
]);

/**
 * /settings/event-queue-status (seed 002 section 2.14): per event name and consumer, how many
 * deliveries wait, how many were given up on (dead letters), and what went wrong most often.
 */
export function EventQueuePage() {
  const summary = useEventQueueSummary();
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Event Queue">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Event Queue</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Reload event queue"
          onClick={() => void summary.refetch()}
          disabled={summary.isFetching}
        >
          <RotateCw size={15} className={summary.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
      </PageTitle>
      {summary.error && !summary.data ? (
        <ErrorAlert error={summary.error} />
      ) : (
        <DataTable
          label="Event queue"
          columns={columns}
          data={summary.data ?? []}
          getRowId={(r) => `${r.name} ${r.consumer}`}
          isLoading={summary.isFetching}
          emptyMessage="The event queue is empty"
        />
      )}
    </div>
  );
}
