import { useMemo } from 'react';
import { DataTable, dataTableColumns, type DataTableColumn } from '#web/components/data-table/index.ts';
import { formatDuration, formatRelative, formatDateTime } from '#web/lib/format.ts';
import { cn } from '#web/lib/cn.ts';
import type { CheckSummary } from '../api/types.ts';
import { groupHealth, headlineLatency, uptimePercent, HEALTH_DOT_CLASS, healthColour } from '../lib/status.ts';
import { NO_GROUPING, groupValue, agentName } from '../lib/grouping.ts';
import { CheckIcon, HealthBadge } from './check-icon.tsx';
import { UptimeBar } from './uptime-bar.tsx';

const col = dataTableColumns<CheckSummary>();

const GROUP_STATE_LABEL = { good: 'good', mixed: 'mixed', bad: 'bad' } as const;

function GroupHealthCell({ rows }: { rows: CheckSummary[] }) {
  const state = groupHealth(rows);
  const failing = rows.filter((r) => r.status !== 'healthy').length;
  const colour = healthColour(state === 'good' ? 'healthy' : state === 'bad' ? 'unhealthy' : 'mixed');
  return (
    <span className="inline-flex items-center gap-1.5 text-sm" data-group-health={state}>
      <span className={cn('h-2.5 w-2.5 rounded-full', HEALTH_DOT_CLASS[colour])} aria-hidden />
      {GROUP_STATE_LABEL[state]}
      {failing > 0 && <span className="text-xs text-gray-500">({failing} failing)</span>}
    </span>
  );
}

/** Columns: Checks, Health, Uptime, Latency, Transition, and a hidden one to group by. */
function buildColumns(groupBy: string): DataTableColumn<CheckSummary>[] {
  const columns: DataTableColumn<CheckSummary>[] = [
    col.accessor('name', {
      id: 'name',
      header: 'Checks',
      sortFn: 'alphanumeric',
      cell: ({ row }) => {
        const c = row.original;
        const agent = agentName(c);
        return (
          // The name keeps its room: the agent badge gives way first, truncated, and in a cell
          // narrower than 12rem (a 700 px window) it is left out (the drawer and Agent tabs say it).
          <div className="@container">
            <span className="flex min-w-0 items-center gap-2">
              <CheckIcon icon={c.icon} type={c.type} />
              <span
                className="min-w-[4.5rem] truncate font-medium text-gray-900"
                title={c.description ?? c.name}
                data-testid="check-row-name"
              >
                {c.name}
              </span>
              {agent !== 'local' && (
                <span
                  className="max-w-[50%] min-w-0 shrink-[3] truncate rounded bg-indigo-50 px-1.5 text-xs text-indigo-700 @max-[12rem]:hidden"
                  title={agent}
                  data-testid="check-row-agent"
                >
                  {agent}
                </span>
              )}
            </span>
          </div>
        );
      },
      meta: { className: 'w-[40%] max-w-0' },
    }),
    col.accessor((c) => (c.status === 'healthy' ? 1 : c.status === 'unhealthy' ? 0 : -1), {
      id: 'health',
      header: 'Health',
      sortFn: 'basic',
      cell: ({ row }) => <HealthBadge status={row.original.status} />,
      meta: { aggregate: (rows) => <GroupHealthCell rows={rows as CheckSummary[]} /> },
    }),
    col.accessor((c) => uptimePercent(c.uptime) ?? -1, {
      id: 'uptime',
      header: 'Uptime',
      sortFn: 'basic',
      cell: ({ row }) => <UptimeBar passed={row.original.uptime.passed} failed={row.original.uptime.failed} />,
      meta: {
        aggregate: (rows) => {
          const list = rows as CheckSummary[];
          const passed = list.reduce((n, r) => n + r.uptime.passed, 0);
          const failed = list.reduce((n, r) => n + r.uptime.failed, 0);
          return <UptimeBar passed={passed} failed={failed} />;
        },
      },
    }),
    col.accessor((c) => headlineLatency(c) ?? -1, {
      id: 'latency',
      header: 'Latency',
      sortFn: 'basic',
      cell: ({ row }) => {
        const v = headlineLatency(row.original);
        return <span className="tabular-nums">{v === undefined ? '—' : formatDuration(v)}</span>;
      },
      meta: { align: 'right' },
    }),
    col.accessor((c) => c.last_transition_time ?? '', {
      id: 'transition',
      header: 'Transition',
      sortFn: 'text',
      cell: ({ row }) => (
        <span title={formatDateTime(row.original.last_transition_time)} className="whitespace-nowrap text-gray-600">
          {formatRelative(row.original.last_transition_time) || '—'}
        </span>
      ),
    }),
  ];
  if (groupBy !== NO_GROUPING) {
    columns.push(
      col.accessor((c) => groupValue(c, groupBy), {
        id: 'group',
        header: 'Group',
        meta: { groupLabel: (v) => (v === '' || v === undefined ? '(none)' : String(v)) },
      }),
    );
  }
  return columns;
}

export interface ChecksTableProps {
  checks: readonly CheckSummary[];
  groupBy: string;
  isLoading: boolean;
  sortBy?: string;
  sortDesc: boolean;
  onSortChange: (sortBy: string | undefined, desc: boolean) => void;
  selectedId?: string;
  onOpen: (check: CheckSummary) => void;
}

const GROUPED = ['group'] as const;
const NOT_GROUPED: readonly string[] = [];

/** The table layout: virtual rows, groups that expand (open by default) and sortable columns. */
export function ChecksTable({
  checks,
  groupBy,
  isLoading,
  sortBy,
  sortDesc,
  onSortChange,
  selectedId,
  onOpen,
}: ChecksTableProps) {
  const columns = useMemo(() => buildColumns(groupBy), [groupBy]);
  const sorting = useMemo(() => (sortBy ? [{ id: sortBy, desc: sortDesc }] : []), [sortBy, sortDesc]);
  const grouped = groupBy !== NO_GROUPING;
  return (
    <DataTable
      // a new grouping starts with every group open again
      key={groupBy}
      label="Health checks"
      columns={columns}
      data={checks}
      getRowId={(c) => c.id}
      isLoading={isLoading}
      groupBy={grouped ? GROUPED : NOT_GROUPED}
      groupsExpanded
      sorting={sorting}
      onSortingChange={(next) => onSortChange(next[0]?.id, next[0]?.desc ?? false)}
      onRowClick={onOpen}
      isRowSelected={(c) => c.id === selectedId}
      virtual
      height="calc(100vh - 15rem)"
    />
  );
}
