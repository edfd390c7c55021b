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
import { summaryGroupKey, useConfigSummary } from '../api/config-summary.ts';
import {
  useAgents,
  useConfigLabels,
  useConfigStatuses,
  useConfigTagKeys,
  useConfigTypes,
} from '../api/filter-values.ts';
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

/** The group of a list row for one group-by key (the flat list groups its page on its own). */
const groupKeyValue = (row: ConfigListRow, key: string): string => {
  if (key === 'analysis')
    return (
      Object.keys(row.analysis ?? {})
        .sort()
        .join(', ') || 'No insights'
    );
  if (key === 'changed') return (row.changes ?? 0) > 0 ? 'Changed' : 'Unchanged';
  if (key.startsWith('tag:')) return row.tags?.[key.slice(4)] ?? '';
  return String((row as unknown as Record<string, unknown>)[key] ?? '');
};
const groupValue = (row: ConfigListRow, groupBy: string): string =>
  groupBy
    .split(',')
    .map((k) => groupKeyValue(row, k))
    .join(' / ');

/** Header of a summary group column. */
const GROUP_HEADERS: Record<string, string> = {
  config_class: 'Provider',
  type: 'Type',
  name: 'Name',
  changed: 'Changed',
};

/**
 * /catalog (seed 002 section 2.2): without a type or search, the summary: POST
 * /api/catalog/summary grouped by the Group By choice (default provider and type) with the
 * Labels, Status, Health and Agent filters applied on the server, favourite types first; a
 * summary row sets the filters it stands for. With a type or search, the flat list, paged on the
 * server, optionally grouped. Every filter, the grouping and the sort are in the URL; Hide
 * Deleted Catalog and the favourites are kept locally.
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

  // seed 002 section 2.2: 'Without a configType or search, the page shows a summary'
  const filtered = !!(configType || search);
  const groupKeys = useMemo(() => groupBy.split(',').filter(Boolean), [groupBy]);
  const summary = useConfigSummary(
    {
      groupBy: groupKeys,
      hideDeleted,
      labels: labels || undefined,
      tags: tags || undefined,
      status: status || undefined,
      health: health || undefined,
      agent_id: agentId || undefined,
    },
    !filtered,
  );
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
  const tagKeyValues = useConfigTagKeys();
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

  // the server orders by the group keys; pinned types come first (a stable sort keeps the rest)
  const summaryRows = useMemo(() => {
    const rows = [...(summary.data ?? [])];
    const fav = new Set(favourites);
    const pinned = (r: ConfigSummaryRow) => Number(typeof r.type === 'string' && fav.has(r.type));
    return groupKeys.includes('type') ? rows.sort((a, b) => pinned(b) - pinned(a)) : rows;
  }, [summary.data, favourites, groupKeys]);

  /** A summary row sets the filters it stands for (seed 002 section 2.2). */
  const openSummaryRow = (r: ConfigSummaryRow) => {
    const next: Record<string, string | null> = {};
    const nextTags = decodeTriState(tags);
    let tagged = false;
    for (const key of groupKeys) {
      if (key === 'type' && r.type) next.configType = r.type;
      if (key === 'name' && r.name) next.search = r.name;
      const tagValue = key.startsWith('tag:') ? r[summaryGroupKey(key)] : undefined;
      if (typeof tagValue === 'string') {
        nextTags[tagEntry(key.slice(4), tagValue)] = 1;
        tagged = true;
      }
    }
    if (tagged) next.tags = encodeTriState(nextTags) || null;
    if (!Object.keys(next).length) return;
    if (next.search) setSearchText(next.search);
    update({ ...next, type: null, pageSize: null }, { push: true });
  };

  const summaryColumns = useMemo<DataTableColumn<ConfigSummaryRow>[]>(() => {
    const keyColumn = (key: string): DataTableColumn<ConfigSummaryRow> => {
      if (key === 'type')
        return sumCol.accessor((r) => r.type ?? '', {
          id: 'type',
          header: 'Type',
          cell: ({ row }) => {
            const type = row.original.type ?? '';
            const fav = favourites.includes(type);
            return (
              <span className="inline-flex items-center gap-2">
                <button
                  type="button"
                  aria-label={fav ? `Unpin ${type}` : `Pin ${type} as favourite`}
                  aria-pressed={fav}
                  onClick={(e) => {
                    e.stopPropagation();
                    toggleFavourite(type);
                  }}
                  className="text-gray-300 hover:text-amber-500"
                >
                  <Star size={14} aria-hidden className={cn(fav && 'fill-amber-400 text-amber-500')} />
                </button>
                <span className="block max-w-60 truncate font-medium text-gray-900" title={type}>
                  {type}
                </span>
              </span>
            );
          },
        });
      if (key === 'changed')
        return sumCol.accessor((r) => (r.changed ? 'Changed' : 'Unchanged'), {
          id: 'changed',
          header: 'Changed',
          meta: { className: 'w-32' },
        });
      const field = summaryGroupKey(key);
      // long values (AWS types as providers) are cut so the counts stay in view at 1024 px
      // next to the type (which starts with it) the provider gives way below 1280 px
      const narrowHidden = key === 'config_class' && groupKeys.includes('type');
      return sumCol.accessor((r) => String(r[field] ?? ''), {
        id: field,
        header: GROUP_HEADERS[key] ?? (key.startsWith('tag:') ? key.slice(4) : key),
        meta: narrowHidden ? { className: 'hidden xl:table-cell' } : undefined,
        cell: ({ getValue }) =>
          getValue() === '' ? (
            <span className="text-gray-400">(none)</span>
          ) : (
            <span
              className={cn(
                'block truncate font-medium text-gray-900',
                key === 'config_class' ? 'max-w-40' : 'max-w-72',
              )}
              title={getValue()}
            >
              {getValue()}
            </span>
          ),
      });
    };
    return [
      // grouping by analysis or health answers the group under its counts: the Analysis and Health columns
      ...groupKeys.filter((key) => key !== 'analysis' && key !== 'health').map(keyColumn),
      sumCol.accessor('count', { header: 'Count', meta: { align: 'right', className: 'w-20' } }),
      sumCol.accessor('health', {
        header: 'Health',
        enableSorting: false,
        meta: { className: 'whitespace-nowrap' },
        cell: ({ getValue }) => <HealthCounts counts={getValue()} />,
      }),
      sumCol.accessor('analysis', {
        header: 'Analysis',
        enableSorting: false,
        cell: ({ getValue }) =>
          groupKeys.includes('analysis') && !Object.keys(getValue() ?? {}).length ? (
            <span className="text-gray-500">No insights</span>
          ) : (
            <AnalysisCounts analysis={getValue()} />
          ),
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
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toggleFavourite only writes storage
  }, [favourites, groupKeys]);

  // any tag of the live items (config_tags), and whatever grouping the URL holds
  const tagKeys = tagKeyValues.data ?? [];
  const groupOptions: { value: string; label: string }[] = [
    ...GROUP_BY_OPTIONS,
    ...tagKeys.map((k) => ({ value: `tag:${k}`, label: `Tag: ${k}` })),
  ];
  if (!groupOptions.some((o) => o.value === groupBy))
    groupOptions.push({
      value: groupBy,
      label: groupKeys.map((k) => (k.startsWith('tag:') ? `Tag: ${k.slice(4)}` : (GROUP_HEADERS[k] ?? k))).join(', '),
    });

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
          getRowId={(r, i) => `${i}:${JSON.stringify(groupKeys.map((k) => r[summaryGroupKey(k)] ?? null))}`}
          isLoading={summary.isFetching}
          enableSorting={false}
          pagination={false}
          onRowClick={openSummaryRow}
        />
      )}
    </CatalogLayout>
  );
}
