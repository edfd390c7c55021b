import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Search, Star } from 'lucide-react';
import { decodeTriState, encodeTriState, type TriStateMap } from '@watchdeck/core';
import { DataTable, dataTableColumns, type DataTableColumn } from '#web/components/data-table/index.ts';
import { TriStateFilter } from '#web/components/filters/index.ts';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { useLocalStorage } from '#web/lib/storage.ts';
import { cn } from '#web/lib/cn.ts';
import { useConfigList } from '../api/config-list.ts';
import { useConfigSummary } from '../api/config-summary.ts';
import { useAgents, useConfigLabels, useConfigStatuses, useConfigTypes } from '../api/filter-values.ts';
import type { ConfigListRow, ConfigSummaryRow } from '../api/types.ts';
import {
  CATALOG_PAGE_SIZE,
  DEFAULT_GROUP_BY,
  DEFAULT_SORT_BY,
  FAVOURITE_TYPES_KEY,
  HEALTH_OPTIONS,
  HIDE_DELETED_KEY,
  SEARCH_DEBOUNCE_MS,
} from '../lib/constants.ts';
import { tagEntry, typeLabel } from '../lib/format.ts';
import { AnalysisCounts, ChangesCount, Cost, HealthCounts, HealthStatus, TagChips } from '../components/badges.tsx';
import { CatalogLayout } from '../components/catalog-tabs.tsx';
import { PreferencesControl } from '../components/preferences.tsx';
import { FIELD_CLASS } from '../components/field-class.ts';

/** Group-by choices of the flat list (seed 002 section 2.2), plus any tag ('tag:<key>'). */
const GROUP_BY_OPTIONS = [
  { value: DEFAULT_GROUP_BY, label: 'Provider, Type' },
  { value: 'name', label: 'Name' },
  { value: 'analysis', label: 'Analysis' },
  { value: 'changed', label: 'Changed' },
  { value: 'type', label: 'Type' },
  { value: 'config_class', label: 'Provider' },
] as const;

const col = dataTableColumns<ConfigListRow>();
const sumCol = dataTableColumns<ConfigSummaryRow>();

/** The group a row belongs to for each group-by choice the table can't read from a column. */
const groupValue = (row: ConfigListRow, groupBy: string): string => {
  if (groupBy === 'analysis')
    return (
      Object.keys(row.analysis ?? {})
        .sort()
        .join(', ') || 'No insights'
    );
  if (groupBy === 'changed') return (row.changes ?? 0) > 0 ? 'Changed' : 'Unchanged';
  if (groupBy.startsWith('tag:')) return row.tags?.[groupBy.slice(4)] ?? '';
  return String((row as unknown as Record<string, unknown>)[groupBy] ?? '');
};

/**
 * /catalog (seed 002 section 2.2): without a type or search (or other filter) a summary by
 * provider and type, favourites first; otherwise the flat list, paged on the server, optionally
 * grouped. Every filter, the grouping and the sort are in the URL; Hide Deleted Catalog and the
 * favourites are kept locally.
 */
export function CatalogPage() {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const navigate = useNavigate();
  const [hideDeleted, setHideDeleted] = useLocalStorage(HIDE_DELETED_KEY, true);
  const [favourites, setFavourites] = useLocalStorage<string[]>(FAVOURITE_TYPES_KEY, []);

  const configType = params.get('configType') ?? params.get('type') ?? '';
  const search = params.get('search') ?? '';
  const status = params.get('status') ?? '';
  const health = params.get('health') ?? '';
  const labels = params.get('labels') ?? '';
  const tags = params.get('tags') ?? '';
  const agentId = params.get('agent_id') ?? '';
  const groupBy = params.get('groupBy') ?? DEFAULT_GROUP_BY;
  const sortBy = params.get('sortBy') ?? DEFAULT_SORT_BY;
  const sortOrder = params.get('sortOrder') === 'desc' ? 'desc' : 'asc';
  const pageSize = Number(params.get('pageSize')) || CATALOG_PAGE_SIZE;

  // the search box answers at once; the URL (and the query) follow 400 ms after typing stops
  const [searchText, setSearchText] = useState(search);
  const debounced = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (debounced !== search) update({ search: debounced || null, pageSize: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives the URL
  }, [debounced]);

  const filtered = !!(
    configType ||
    search ||
    status ||
    health ||
    labels ||
    tags ||
    agentId ||
    groupBy !== DEFAULT_GROUP_BY
  );
  const summary = useConfigSummary(!filtered);
  const list = useConfigList(
    {
      configType,
      search,
      status,
      health,
      labels,
      tags,
      agent_id: agentId || undefined,
      sortBy,
      sortOrder,
      hideDeleted,
      pageIndex: 0,
      pageSize,
    },
    filtered,
  );

  const types = useConfigTypes();
  const statuses = useConfigStatuses();
  const labelValues = useConfigLabels();
  const agents = useAgents();

  const setFilter = (key: string, value: string | null) => update({ [key]: value || null, pageSize: null });
  const triState = (key: string, text: string) => ({
    value: decodeTriState(text),
    onChange: (next: TriStateMap) => setFilter(key, encodeTriState(next)),
  });

  const toggleFavourite = (type: string) =>
    setFavourites((prev) => (prev.includes(type) ? prev.filter((t) => t !== type) : [...prev, type]));

  const summaryRows = useMemo(() => {
    const rows = [...(summary.data ?? [])];
    const fav = new Set(favourites);
    return rows.sort((a, b) => Number(fav.has(b.type)) - Number(fav.has(a.type)) || a.type.localeCompare(b.type));
  }, [summary.data, favourites]);

  const summaryColumns = useMemo<DataTableColumn<ConfigSummaryRow>[]>(
    () => [
      sumCol.accessor('type', {
        header: 'Type',
        cell: ({ row }) => {
          const fav = favourites.includes(row.original.type);
          return (
            <span className="inline-flex items-center gap-2">
              <button
                type="button"
                aria-label={fav ? `Unpin ${row.original.type}` : `Pin ${row.original.type} as favourite`}
                aria-pressed={fav}
                onClick={(e) => {
                  e.stopPropagation();
                  toggleFavourite(row.original.type);
                }}
                className="text-gray-300 hover:text-amber-500"
              >
                <Star size={14} aria-hidden className={cn(fav && 'fill-amber-400 text-amber-500')} />
              </button>
              <span className="font-medium text-gray-900">{row.original.type}</span>
            </span>
          );
        },
      }),
      sumCol.accessor('config_class', { header: 'Provider', meta: { className: 'w-40' } }),
      sumCol.accessor('count', { header: 'Count', meta: { align: 'right', className: 'w-20' } }),
      sumCol.accessor('health', {
        header: 'Health',
        enableSorting: false,
        cell: ({ getValue }) => <HealthCounts counts={getValue()} />,
      }),
      sumCol.accessor('analysis', {
        header: 'Analysis',
        enableSorting: false,
        cell: ({ getValue }) => <AnalysisCounts analysis={getValue()} />,
      }),
      sumCol.accessor('changes', {
        header: 'Changes',
        meta: { align: 'right', className: 'w-24' },
        cell: ({ getValue }) => <ChangesCount value={Number(getValue())} />,
      }),
      sumCol.accessor('cost_total_30d', {
        header: 'Cost',
        meta: { align: 'right', className: 'w-28' },
        cell: ({ row }) => <Cost cost1d={row.original.cost_total_1d} cost30d={row.original.cost_total_30d} />,
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toggleFavourite only writes storage
    [favourites],
  );

  const tagKeys = useMemo(
    () => [...new Set((list.data?.rows ?? []).flatMap((r) => Object.keys(r.tags ?? {})))],
    [list.data],
  );
  const groupOptions = [
    ...GROUP_BY_OPTIONS,
    ...tagKeys.filter((k) => `tag:${k}` !== groupBy).map((k) => ({ value: `tag:${k}`, label: `Tag: ${k}` })),
    ...(groupBy.startsWith('tag:') ? [{ value: groupBy, label: `Tag: ${groupBy.slice(4)}` }] : []),
  ];

  const listColumns = useMemo<DataTableColumn<ConfigListRow>[]>(
    () => [
      col.accessor('name', {
        header: 'Name',
        cell: ({ row }) => (
          <Link
            to={`/catalog/${row.original.id}`}
            className={cn(
              'font-medium text-gray-900 hover:underline',
              row.original.deleted_at && 'text-gray-400 line-through',
            )}
            onClick={(e) => e.stopPropagation()}
          >
            {row.original.name}
          </Link>
        ),
      }),
      col.accessor('type', {
        header: 'Type',
        cell: ({ getValue }) => <span title={getValue()}>{typeLabel(getValue())}</span>,
      }),
      col.accessor('status', {
        header: 'Status',
        cell: ({ row }) => <HealthStatus health={row.original.health} status={row.original.status} />,
      }),
      col.accessor('changes', {
        header: 'Changes',
        meta: { align: 'right' },
        cell: ({ getValue }) => <ChangesCount value={getValue()} />,
      }),
      col.accessor('tags', {
        header: 'Tags',
        enableSorting: false,
        cell: ({ getValue }) => (
          <TagChips
            tags={getValue()}
            max={2}
            onPick={(k, v) => setFilter('tags', encodeTriState({ ...decodeTriState(tags), [tagEntry(k, v)]: 1 }))}
          />
        ),
      }),
      col.accessor('analysis', {
        header: 'Analysis',
        enableSorting: false,
        cell: ({ getValue }) => <AnalysisCounts analysis={getValue()} />,
      }),
      col.accessor('cost_total_30d', {
        header: 'Cost',
        meta: { align: 'right' },
        cell: ({ row }) => <Cost cost1d={row.original.cost_total_1d} cost30d={row.original.cost_total_30d} />,
      }),
      col.accessor('created_at', { header: 'Created', cell: ({ getValue }) => <RelativeTime at={getValue()} /> }),
      col.accessor('updated_at', { header: 'Updated', cell: ({ getValue }) => <RelativeTime at={getValue()} /> }),
      col.accessor('deleted_at', {
        header: 'Deleted At',
        cell: ({ getValue }) => <RelativeTime at={getValue()} />,
      }),
      col.display({
        id: 'changed',
        header: 'Changed',
        cell: ({ row }) => ((row.original.changes ?? 0) > 0 ? 'Yes' : ''),
      }),
      col.accessor('config_class', { header: 'Provider' }),
      col.accessor((r) => groupValue(r, groupBy), { id: 'group', header: 'Group' }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setFilter writes the URL
    [groupBy, tags],
  );

  const grouping = !filtered || groupBy === DEFAULT_GROUP_BY ? [] : ['group'];
  const hidden = ['config_class', 'group', ...(hideDeleted ? ['deleted_at'] : [])];

  const typeOptions = types.data ?? [];
  const labelOptions = (labelValues.data ?? []).map((l) => ({
    value: tagEntry(l.key, l.value),
    label: `${l.key}: ${l.value}`,
  }));

  return (
    <CatalogLayout
      actions={
        <PreferencesControl
          label="Hide Deleted Catalog"
          hideDeleted={hideDeleted}
          onHideDeletedChange={setHideDeleted}
        />
      }
    >
      <PageTitle documentTitle="Catalog">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <Link to="/catalog" className="font-semibold text-gray-900">
            Catalog
          </Link>
          {configType && (
            <>
              <span className="text-gray-400">/</span>
              <span className="text-gray-700">{configType}</span>
            </>
          )}
        </nav>
      </PageTitle>
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
        <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
          Type
          <select
            aria-label="Type"
            value={configType}
            onChange={(e) => update({ configType: e.target.value || null, type: null, pageSize: null })}
            className={cn(FIELD_CLASS, 'w-56')}
          >
            <option value="">All</option>
            {typeOptions.map((t) => (
              <option key={t.type} value={t.type}>
                {t.type}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
          Group By
          <select
            aria-label="Group By"
            value={groupBy}
            onChange={(e) => setFilter('groupBy', e.target.value === DEFAULT_GROUP_BY ? null : e.target.value)}
            className={cn(FIELD_CLASS, 'w-44')}
          >
            {groupOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <TriStateFilter label="Labels" options={labelOptions} {...triState('labels', labels)} searchable />
        <TriStateFilter
          label="Status"
          options={(statuses.data ?? []).map((s) => ({ value: s.status }))}
          {...triState('status', status)}
        />
        <TriStateFilter label="Health" options={HEALTH_OPTIONS} {...triState('health', health)} />
        <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
          Agent
          <select
            aria-label="Agent"
            value={agentId}
            onChange={(e) => setFilter('agent_id', e.target.value)}
            className={cn(FIELD_CLASS, 'w-44')}
          >
            <option value="">All</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <span className="relative">
          <Search size={14} aria-hidden className="absolute top-1/2 left-2 -translate-y-1/2 text-gray-400" />
          <input
            type="search"
            aria-label="Search"
            placeholder="Search"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            className={cn(FIELD_CLASS.replace('px-2', 'pr-2'), 'w-56 pl-7')}
          />
        </span>
      </div>
      {filtered ? (
        list.error && !list.data ? (
          <ErrorAlert error={list.error} />
        ) : (
          <DataTable
            label="Catalog"
            columns={listColumns}
            data={list.data?.rows ?? []}
            getRowId={(r) => r.id}
            isLoading={list.isFetching}
            hiddenColumns={hidden}
            groupBy={grouping}
            groupsExpanded
            onRowClick={(r) => void navigate(`/catalog/${r.id}`)}
            manualSorting
            sorting={[{ id: sortBy, desc: sortOrder === 'desc' }]}
            onSortingChange={(s) =>
              update({
                sortBy: s[0] && s[0].id !== DEFAULT_SORT_BY ? s[0].id : null,
                sortOrder: s[0]?.desc ? 'desc' : null,
                pageSize: null,
              })
            }
            virtual
            height="calc(100vh - 13rem)"
            pageIndex={0}
            pageSize={pageSize}
            rowCount={list.data?.total ?? 0}
            onPaginationChange={(p) => update({ pageSize: p.pageSize === CATALOG_PAGE_SIZE ? null : p.pageSize })}
          />
        )
      ) : summary.error && !summary.data ? (
        <ErrorAlert error={summary.error} />
      ) : (
        <DataTable
          label="Catalog summary"
          columns={summaryColumns}
          data={summaryRows}
          getRowId={(r) => `${r.config_class}/${r.type}`}
          isLoading={summary.isFetching}
          enableSorting={false}
          pagination={false}
          onRowClick={(r) => update({ configType: r.type }, { push: true })}
        />
      )}
    </CatalogLayout>
  );
}
