import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Plus, RotateCw, Search, X } from 'lucide-react';
import { INCIDENT_STATUSES, INCIDENT_TYPES } from '@watchdeck/core';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { inputClass } from '#web/components/forms/index.ts';
import { AvatarStack } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { useCan } from '#web/lib/session.tsx';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { usePaginationParams, useSortingParams, useUpdateSearchParams } from '#web/lib/url-state.ts';
import { SORTABLE, useIncidentList, type IncidentFilters } from '../api/list.ts';
import { useComponentName } from '../api/use-component-name.ts';
import { usePeople } from '../api/use-people.ts';
import type { IncidentListRow } from '../api/types.ts';
import { SeverityBadge, StatusBadge, TypeLabel } from '../components/badges.tsx';
import { CreateIncidentModal } from '../components/create-incident-modal.tsx';
import { COMPONENTS_FAILED } from '../lib/messages.ts';
import { SEVERITY_FILTER_OPTIONS, STATUS_LABELS, TYPE_LABELS } from '../lib/display.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

/** seed 001 section 8 */
const NO_INCIDENTS = 'There are no incidents matching this criteria';
/** seed 001 section 2: the incident search input */
const SEARCH_DEBOUNCE_MS = 400;
const DEFAULT_STATUS = 'open';
const DEFAULT_SORT = { id: 'created_at', desc: true };

const col = dataTableColumns<IncidentListRow>();
/** cell padding: tighter on a narrow page (see the columns); `!` wins over the table's own px-3 */
const CELL = 'px-2! @min-[56rem]:px-3!';

function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="flex items-center gap-1.5 text-sm text-gray-600">
      <span>{label}</span>
      <select
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass()} w-auto py-1`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * /incidents (seed 001 section 2): filters in the query string (type, severity, status, owner,
 * component, search; status defaults to open), server-side paging and sorting, the responders'
 * first 5 avatars, a row click opens the incident, the plus button creates one.
 */
export function IncidentsPage() {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const navigate = useNavigate();
  const { pageIndex, pageSize, setPagination } = usePaginationParams();
  const { sorting, setSorting } = useSortingParams({ defaultSort: DEFAULT_SORT });
  const canCreate = useCan('incident', 'write');
  const [creating, setCreating] = useState(false);
  const people = usePeople();

  const filters: IncidentFilters = {
    status: params.get('status') ?? DEFAULT_STATUS,
    severity: params.get('severity') ?? undefined,
    type: params.get('type') ?? undefined,
    owner: params.get('owner') ?? undefined,
    component: params.get('component') ?? undefined,
    search: params.get('search') ?? undefined,
  };
  const component = useComponentName(filters.component);

  // the search box types freely; the URL (and the query) follow 400 ms after the last key
  const [searchText, setSearchText] = useState(filters.search ?? '');
  const debounced = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if ((filters.search ?? '') !== debounced.trim()) update({ search: debounced.trim() || null }, { resetPage: true });
    // only the typed text drives this; the URL is its output
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const setFilter = (key: string, value: string, fallback = '') =>
    update({ [key]: value === fallback ? null : value }, { resetPage: true });
  const sort = sorting[0] ?? DEFAULT_SORT;
  const list = useIncidentList(filters, { pageIndex, pageSize, sortBy: sort.id, sortDesc: sort.desc });

  // The other columns keep their content on one line; the name takes the rest and keeps at least
  // 11rem. Below a 56rem wide page (1024 px with the sidebar open) the type shows as its icon (its
  // name in the tooltip) and cells pad less, so the name is not squeezed into a one-word column.
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('incident_id', {
          header: 'Id',
          meta: { className: `${CELL} whitespace-nowrap` },
          cell: (c) => <span className="font-mono text-xs text-gray-600">{c.getValue()}</span>,
        }),
        col.accessor('type', {
          header: 'Type',
          meta: { className: CELL },
          cell: (c) => (
            <TypeLabel
              type={c.getValue()}
              labelClassName="sr-only @min-[56rem]:not-sr-only @min-[56rem]:whitespace-nowrap"
            />
          ),
        }),
        col.accessor('severity', {
          header: 'Severity',
          enableSorting: false,
          meta: { className: CELL },
          cell: (c) => <SeverityBadge severity={c.getValue()} />,
        }),
        col.accessor('status', {
          header: 'Status',
          meta: { className: CELL },
          cell: (c) => <StatusBadge status={c.getValue()} />,
        }),
        col.accessor('title', {
          header: 'Name',
          meta: { className: `${CELL} w-full min-w-44` },
          cell: (c) => <span className="font-medium break-words text-gray-900">{c.getValue()}</span>,
        }),
        col.accessor('created_at', {
          header: 'Age',
          meta: { className: `${CELL} whitespace-nowrap` },
          cell: (c) => (
            <Tooltip content={formatDateTime(c.getValue())}>
              <span>{formatRelative(c.getValue())}</span>
            </Tooltip>
          ),
        }),
        col.accessor('responders', {
          header: 'Responders',
          enableSorting: false,
          meta: { className: `${CELL} whitespace-nowrap` },
          cell: (c) =>
            c.getValue().length ? <AvatarStack people={c.getValue()} /> : <span className="text-gray-400">—</span>,
        }),
      ]),
    [],
  );

  return (
    <div className="@container flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Incidents">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="font-semibold text-gray-900">Incidents</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Refresh"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RotateCw size={15} className={list.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canCreate && (
          <Button
            variant="primary"
            size="icon"
            className="h-8 w-8"
            aria-label="Create New Incident"
            onClick={() => setCreating(true)}
          >
            <Plus size={16} aria-hidden />
          </Button>
        )}
      </PageTitle>

      <div className="flex flex-wrap items-center gap-3" role="search" aria-label="Incident filters">
        <div className="relative w-72">
          <Search
            size={15}
            className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-gray-400"
            aria-hidden
          />
          <input
            type="search"
            aria-label="Search incidents"
            placeholder="Search by title or id"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            className={`${inputClass()} py-1 pl-8`}
          />
        </div>
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={(v) => setFilter('status', v, DEFAULT_STATUS)}
          options={[
            { value: 'all', label: 'All' },
            ...INCIDENT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
          ]}
        />
        <FilterSelect
          label="Severity"
          value={filters.severity ?? ''}
          onChange={(v) => setFilter('severity', v)}
          options={SEVERITY_FILTER_OPTIONS}
        />
        <FilterSelect
          label="Type"
          value={filters.type ?? ''}
          onChange={(v) => setFilter('type', v)}
          options={[{ value: '', label: 'All' }, ...INCIDENT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))]}
        />
        <FilterSelect
          label="Owner"
          value={filters.owner ?? ''}
          onChange={(v) => setFilter('owner', v)}
          options={[
            { value: '', label: 'All' },
            ...(people.data ?? []).map((p) => ({ value: p.id, label: p.name ?? p.id })),
          ]}
        />
        {filters.component && (
          <span className="inline-flex items-center gap-1 rounded-full bg-blue-50 py-0.5 pr-1 pl-2.5 text-sm text-blue-800">
            Component: {component.error ? COMPONENTS_FAILED : (component.data?.name ?? '…')}
            <button
              type="button"
              aria-label="Clear component filter"
              className="rounded-full p-0.5 hover:bg-blue-100"
              onClick={() => setFilter('component', '')}
            >
              <X size={13} aria-hidden />
            </button>
          </span>
        )}
      </div>

      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Incidents"
          columns={columns}
          data={list.data?.rows ?? []}
          getRowId={(r) => r.id}
          isLoading={list.isLoading}
          onRowClick={(r) => void navigate(`/incidents/${r.id}`)}
          emptyMessage={NO_INCIDENTS}
          manualSorting
          sorting={sorting.filter((s) => (SORTABLE as readonly string[]).includes(s.id))}
          onSortingChange={setSorting}
          pageIndex={pageIndex}
          pageSize={pageSize}
          rowCount={list.data?.total ?? 0}
          onPaginationChange={setPagination}
          className="min-h-0 flex-1"
        />
      )}

      <CreateIncidentModal
        open={creating}
        onOpenChange={setCreating}
        onCreated={(id) => {
          setCreating(false);
          void list.refetch();
          void navigate(`/incidents/${id}`);
        }}
      />
    </div>
  );
}
