import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { X } from 'lucide-react';
import { decodeTriState, encodeTriState, type TriStateMap } from '@watchdeck/core';
import { DataTable, dataTableColumns, type DataTableColumn } from '#web/components/data-table/index.ts';
import { TriStateFilter } from '#web/components/filters/index.ts';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import {
  UrlTimeRangePicker,
  pastRange,
  resolveTimeRange,
  useTimeRangeParams,
} from '#web/components/time-range/index.ts';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import { useLocalStorage } from '#web/lib/storage.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { ARBITRARY_FILTERS, useConfigChanges, type ArbitraryFilter } from '../api/config-changes.ts';
import { useChangeTypes, useConfigTypes } from '../api/filter-values.ts';
import type { ConfigChange } from '../api/types.ts';
import {
  CHANGES_DEFAULT_RANGE,
  CHANGES_DEFAULT_SORT,
  CHANGES_PAGE_SIZE,
  HIDE_DELETED_CHANGES_KEY,
  MESSAGES,
  SEVERITIES,
} from '../lib/constants.ts';
import { tagEntry, typeLabel } from '../lib/format.ts';
import { SeverityBadge, TagChips } from './badges.tsx';
import { ChangeDetailDialog } from './change-detail-dialog.tsx';
import { PreferencesControl } from './preferences.tsx';
import { Toggle } from './toggle.tsx';

const col = dataTableColumns<ConfigChange>();
const DEFAULT_RANGE = pastRange(CHANGES_DEFAULT_RANGE);

const CHIP_LABELS: Record<ArbitraryFilter, string> = {
  id: 'Catalog',
  summary: 'Summary',
  source: 'Source',
  created_by: 'Created By',
  external_created_by: 'Created By',
};

/** A clickable cell value: a click filters the list by it (and doesn't open the row). */
function FilterValue({ children, onPick, title }: { children: React.ReactNode; onPick: () => void; title: string }) {
  return (
    <button
      type="button"
      title={title}
      onClick={(e) => {
        e.stopPropagation();
        onPick();
      }}
      className="max-w-full truncate text-left hover:text-blue-700 hover:underline"
    >
      {children}
    </button>
  );
}

/**
 * The changes list (seed 002 section 2.4), for every config or one (`configId`, with the
 * upstream and downstream toggles). Every filter lives in the URL: configTypes, changeType,
 * severity, tags, the time range, the arbitrary filters (id, summary, source, created_by,
 * external_created_by) shown as removable chips, sortBy, sortDirection, page and pageSize.
 */
export function ChangesView({ configId }: { configId?: string }) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const [hideDeleted, setHideDeleted] = useLocalStorage(HIDE_DELETED_CHANGES_KEY, true);
  // the open change is in the URL (changeId), so an incident's evidence can link to it
  const openId = params.get('changeId') ?? undefined;
  const setOpenId = (id: string | undefined) => update({ changeId: id ?? null }, { push: !!id });

  const { range } = useTimeRangeParams({ defaultRange: DEFAULT_RANGE });
  // resolved once per chosen range: a new Date every render would be a new query every render
  const rangeKey = range ? `${range.type}|${range.from}|${range.to}` : '';
  const resolved = useMemo(() => (range ? resolveTimeRange(range) : undefined), [rangeKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const downstream = params.get('downstream') !== 'false';
  const upstream = params.get('upstream') === 'true';
  const typeFilter = upstream && downstream ? 'all' : upstream ? 'upstream' : downstream ? 'downstream' : 'none';

  const arbitrary: Partial<Record<ArbitraryFilter, string>> = {};
  for (const k of ARBITRARY_FILTERS) {
    const v = params.get(k);
    if (v) arbitrary[k] = v;
  }
  const sortBy = params.get('sortBy') ?? CHANGES_DEFAULT_SORT.id;
  const sortDirection = params.get('sortDirection') === 'asc' ? 'asc' : params.get('sortBy') ? 'desc' : 'desc';
  const page = Math.max(Number(params.get('page')) || 1, 1);
  const pageSize = Number(params.get('pageSize')) || CHANGES_PAGE_SIZE;

  const changes = useConfigChanges({
    configId,
    typeFilter,
    includeDeletedConfigs: !hideDeleted,
    changeType: params.get('changeType') ?? '',
    severity: params.get('severity') ?? '',
    configTypes: params.get('configTypes') ?? '',
    tags: params.get('tags') ?? '',
    from: resolved?.from.toISOString(),
    to: resolved?.to.toISOString(),
    arbitrary,
    sortBy,
    sortOrder: sortDirection,
    page,
    pageSize,
  });
  const changeTypes = useChangeTypes();
  const configTypes = useConfigTypes();

  const set = (key: string, value: string | null) => update({ [key]: value || null, page: null });
  const triState = (key: string) => ({
    value: decodeTriState(params.get(key)),
    onChange: (next: TriStateMap) => set(key, encodeTriState(next)),
  });
  const addTriState = (key: string, value: string) =>
    set(key, encodeTriState({ ...decodeTriState(params.get(key)), [value]: 1 }));

  const columns = useMemo<DataTableColumn<ConfigChange>[]>(
    () => [
      col.accessor('created_at', {
        header: 'Last Seen',
        cell: ({ row }) => (
          <span className="inline-flex flex-col">
            <RelativeTime at={row.original.created_at} />
            {row.original.count > 1 && (
              <span
                className="text-xs text-gray-500"
                title={`First observed ${formatDateTime(row.original.first_observed)}`}
              >
                ×{row.original.count} since <RelativeTime at={row.original.first_observed} />
              </span>
            )}
          </span>
        ),
      }),
      col.accessor('name', {
        header: 'Catalog',
        cell: ({ row }) => (
          <span className="inline-flex min-w-0 flex-col">
            <FilterValue title={`Filter by ${row.original.name}`} onPick={() => set('id', row.original.config_id)}>
              <span className={row.original.deleted_at ? 'text-gray-400 line-through' : 'font-medium text-gray-900'}>
                {row.original.name}
              </span>
            </FilterValue>
            <FilterValue
              title={`Filter by type ${row.original.type}`}
              onPick={() => addTriState('configTypes', row.original.type)}
            >
              <span className="text-xs text-gray-500">{typeLabel(row.original.type)}</span>
            </FilterValue>
          </span>
        ),
      }),
      col.accessor('change_type', {
        header: 'Type',
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1.5">
            <FilterValue
              title={`Filter by ${row.original.change_type}`}
              onPick={() => addTriState('changeType', row.original.change_type)}
            >
              {row.original.change_type}
            </FilterValue>
            {row.original.severity && (
              <FilterValue
                title={`Filter by ${row.original.severity}`}
                onPick={() => addTriState('severity', row.original.severity!)}
              >
                <SeverityBadge severity={row.original.severity} />
              </FilterValue>
            )}
          </span>
        ),
      }),
      col.accessor('summary', {
        header: 'Summary',
        meta: { className: 'max-w-md' },
        cell: ({ row }) =>
          row.original.summary ? (
            <FilterValue title={`Filter by this summary`} onPick={() => set('summary', row.original.summary)}>
              {row.original.summary}
            </FilterValue>
          ) : null,
      }),
      col.accessor('tags', {
        header: 'Tags',
        enableSorting: false,
        cell: ({ getValue }) => (
          <TagChips tags={getValue()} max={2} onPick={(k, v) => addTriState('tags', tagEntry(k, v))} />
        ),
      }),
      col.accessor('created_by', {
        header: 'Created By',
        cell: ({ row }) => {
          const r = row.original;
          // who made the change at its source (a commit author, a controller) says more than the
          // account that recorded it
          if (r.external_created_by)
            return (
              <FilterValue
                title="Filter by this author"
                onPick={() => set('external_created_by', r.external_created_by)}
              >
                {r.external_created_by}
              </FilterValue>
            );
          if (r.created_by)
            return (
              <FilterValue title="Filter by this person" onPick={() => set('created_by', r.created_by)}>
                {r.creator?.name ?? r.creator?.email ?? r.created_by}
              </FilterValue>
            );
          return r.source ? (
            <FilterValue title={`Filter by source ${r.source}`} onPick={() => set('source', r.source)}>
              <span className="text-gray-500">{r.source}</span>
            </FilterValue>
          ) : null;
        },
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the handlers write the URL
    [params],
  );

  const chips = Object.entries(arbitrary) as [ArbitraryFilter, string][];
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Change filters">
        {!configId && (
          <TriStateFilter
            label="Config Type"
            options={(configTypes.data ?? []).map((t) => ({ value: t.type }))}
            {...triState('configTypes')}
          />
        )}
        <TriStateFilter
          label="Change Type"
          options={(changeTypes.data ?? []).map((t) => ({ value: t.change_type }))}
          {...triState('changeType')}
        />
        <TriStateFilter label="Severity" options={SEVERITIES.map((s) => ({ value: s }))} {...triState('severity')} />
        <UrlTimeRangePicker defaultRange={DEFAULT_RANGE} />
        {configId && (
          <>
            <Toggle label="Upstream" checked={upstream} onChange={(v) => set('upstream', v ? 'true' : null)} />
            <Toggle label="Downstream" checked={downstream} onChange={(v) => set('downstream', v ? null : 'false')} />
          </>
        )}
        <span className="ml-auto">
          <PreferencesControl
            label="Hide Deleted Catalog Changes"
            hideDeleted={hideDeleted}
            onHideDeletedChange={setHideDeleted}
          />
        </span>
      </div>
      {(chips.length > 0 || params.get('tags')) && (
        <div className="flex flex-wrap items-center gap-1.5" aria-label="Active filters">
          {chips.map(([k, v]) => (
            <span
              key={k}
              className="inline-flex items-center gap-1 rounded-full bg-blue-50 px-2 py-0.5 text-xs text-blue-800"
            >
              {CHIP_LABELS[k]}: {k === 'id' ? (changes.data?.rows.find((r) => r.config_id === v)?.name ?? v) : v}
              <button type="button" aria-label={`Remove ${CHIP_LABELS[k]} filter`} onClick={() => set(k, null)}>
                <X size={12} aria-hidden />
              </button>
            </span>
          ))}
          {Object.entries(decodeTriState(params.get('tags'))).map(([entry, state]) => (
            <span
              key={entry}
              className="inline-flex items-center gap-1 rounded-full bg-blue-50 px-2 py-0.5 text-xs text-blue-800"
            >
              {state === -1 ? 'not ' : ''}
              {entry.replace('____', ': ')}
              <button
                type="button"
                aria-label={`Remove tag filter ${entry.replace('____', ': ')}`}
                onClick={() => {
                  const next = decodeTriState(params.get('tags'));
                  delete next[entry];
                  set('tags', encodeTriState(next));
                }}
              >
                <X size={12} aria-hidden />
              </button>
            </span>
          ))}
        </div>
      )}
      {changes.error && !changes.data ? (
        <ErrorAlert error={changes.error} />
      ) : (
        <DataTable
          label="Changes"
          columns={columns}
          data={changes.data?.rows ?? []}
          getRowId={(r) => r.id}
          isLoading={changes.isFetching}
          onRowClick={(r) => setOpenId(r.id)}
          emptyMessage={changes.error ? MESSAGES.changesError : undefined}
          manualSorting
          sorting={[{ id: sortBy, desc: sortDirection === 'desc' }]}
          onSortingChange={(s) =>
            update({
              sortBy: s[0] && !(s[0].id === CHANGES_DEFAULT_SORT.id && s[0].desc) ? s[0].id : null,
              sortDirection:
                s[0] && !(s[0].id === CHANGES_DEFAULT_SORT.id && s[0].desc) ? (s[0].desc ? 'desc' : 'asc') : null,
              page: null,
            })
          }
          pageIndex={page - 1}
          pageSize={pageSize}
          rowCount={changes.data?.total ?? 0}
          onPaginationChange={(p) =>
            update({
              page: p.pageIndex > 0 ? p.pageIndex + 1 : null,
              pageSize: p.pageSize === CHANGES_PAGE_SIZE ? null : p.pageSize,
            })
          }
          className="min-h-0 flex-1"
        />
      )}
      <ChangeDetailDialog id={openId} onClose={() => setOpenId(undefined)} />
      {configId && (
        <p className="text-xs text-gray-500">
          <Link to={`/catalog/changes?id=${configId}`} className="hover:underline">
            Open in the catalog&apos;s changes
          </Link>
        </p>
      )}
    </div>
  );
}
