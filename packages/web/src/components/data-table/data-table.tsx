import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  functionalUpdate,
  useTable,
  type ExpandedState,
  type PaginationState,
  type Row,
  type SortingState,
  type Updater,
  type ColumnVisibilityState,
  type RowData,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, ChevronsUpDown } from 'lucide-react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@watchdeck/core';
import { cn } from '#web/lib/cn.ts';
import { Spinner } from '../ui/spinner.tsx';
import {
  dataTableFeatures,
  type DataTableColumn,
  type DataTableColumnMeta,
  type DataTableFeatures,
} from './features.ts';
import { PaginationBar } from './pagination.tsx';

export const NO_DATA_MESSAGE = 'No data available';
/** Virtual scrolling (seed 000 section 9). */
const VIRTUAL_OVERSCAN = 10;
const VIRTUAL_ROW_ESTIMATE = 35;

export interface DataTablePagination {
  pageIndex: number;
  pageSize: number;
}

export interface DataTableProps<TData extends RowData> {
  columns: DataTableColumn<TData>[];
  data: readonly TData[];
  getRowId?: (row: TData, index: number) => string;
  isLoading?: boolean;
  onRowClick?: (row: TData) => void;
  /** Highlighted row (e.g. the one whose drawer is open). */
  isRowSelected?: (row: TData) => boolean;
  emptyMessage?: ReactNode;
  /** Column ids not to show. */
  hiddenColumns?: readonly string[];

  // Sorting: controlled when `sorting` is given; `manualSorting` when the server sorts.
  enableSorting?: boolean;
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  manualSorting?: boolean;
  defaultSorting?: SortingState;

  // Grouping: column ids to group by (the columns may be hidden ones). Grouped columns leave the
  // table; each group is a row that expands and collapses, labelled in the first column.
  groupBy?: readonly string[];
  /** Groups start open. */
  groupsExpanded?: boolean;

  // Pagination. Server side: pass pageIndex, pageSize, pageCount (or rowCount) and
  // onPaginationChange; the data is then the current page. Client side: pass nothing (or just
  // the initial page size) and the table pages the data itself. `pagination={false}` shows all.
  pagination?: boolean;
  pageIndex?: number;
  pageSize?: number;
  pageCount?: number;
  rowCount?: number;
  onPaginationChange?: (next: DataTablePagination) => void;
  pageSizes?: readonly number[];

  /**
   * Virtual scrolling: only the rows in view are rendered, in a scroll box this tall (px or CSS
   * length). With server paging, reaching the end doubles the page size.
   */
  virtual?: boolean;
  height?: number | string;
  className?: string;
  /** Accessible name of the table. */
  label?: string;
}

const EMPTY_SORTING: SortingState = [];
const EMPTY_GROUPING: readonly string[] = [];

function alignClass(meta: DataTableColumnMeta | undefined) {
  if (meta?.align === 'right') return 'text-right';
  if (meta?.align === 'center') return 'text-center';
  return 'text-left';
}

/** The generic data table of seed 000: sortable, groupable, paged or virtual. */
export function DataTable<TData extends RowData>(props: DataTableProps<TData>) {
  const {
    columns,
    data,
    getRowId,
    isLoading,
    onRowClick,
    isRowSelected,
    emptyMessage = NO_DATA_MESSAGE,
    hiddenColumns,
    enableSorting = true,
    manualSorting,
    groupBy = EMPTY_GROUPING,
    groupsExpanded = false,
    pagination: paginationEnabled = !props.virtual,
    pageSizes = PAGE_SIZES,
    virtual = false,
    height = 600,
    className,
    label,
  } = props;

  // Sorting: controlled or internal.
  const [innerSorting, setInnerSorting] = useState<SortingState>(props.defaultSorting ?? EMPTY_SORTING);
  const sorting = props.sorting ?? innerSorting;
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = functionalUpdate(updater, sorting);
    if (props.sorting === undefined) setInnerSorting(next);
    props.onSortingChange?.(next);
  };

  // Pagination: server side when a page count or row count comes in.
  const serverPaging = props.pageCount !== undefined || props.rowCount !== undefined;
  const [innerPagination, setInnerPagination] = useState<PaginationState>({
    pageIndex: props.pageIndex ?? 0,
    pageSize: props.pageSize ?? DEFAULT_PAGE_SIZE,
  });
  const controlledPaging = props.pageIndex !== undefined && props.onPaginationChange !== undefined;
  const pagination: PaginationState = controlledPaging
    ? { pageIndex: props.pageIndex!, pageSize: props.pageSize ?? DEFAULT_PAGE_SIZE }
    : innerPagination;
  const setPagination = (updater: Updater<PaginationState>) => {
    const next = functionalUpdate(updater, pagination);
    if (!controlledPaging) setInnerPagination(next);
    props.onPaginationChange?.(next);
  };

  const [expanded, setExpanded] = useState<ExpandedState>(groupsExpanded ? true : {});
  const grouping = useMemo(() => [...groupBy], [groupBy]);
  const columnVisibility = useMemo<ColumnVisibilityState>(
    () => Object.fromEntries((hiddenColumns ?? []).map((id) => [id, false])),
    [hiddenColumns],
  );
  const rows = data as TData[];

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows,
    getRowId,
    state: { sorting, pagination, grouping, expanded, columnVisibility },
    onSortingChange,
    onPaginationChange: setPagination,
    onExpandedChange: setExpanded,
    enableSorting,
    manualSorting,
    enableSortingRemoval: true,
    manualPagination: serverPaging || !paginationEnabled,
    pageCount: props.pageCount,
    rowCount: props.rowCount,
    autoResetPageIndex: false,
    autoResetExpanded: false,
    groupedColumnMode: 'remove',
  });

  const rowModel = table.getRowModel().rows;
  const pageCount = serverPaging
    ? (props.pageCount ?? Math.ceil((props.rowCount ?? 0) / Math.max(pagination.pageSize, 1)))
    : paginationEnabled
      ? table.getPageCount()
      : 1;
  const visibleColumnCount = table.getVisibleLeafColumns().length;

  const headerGroups = table.getHeaderGroups();
  const head = (
    <thead className={cn('bg-gray-50', virtual && 'sticky top-0 z-10')}>
      {headerGroups.map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => {
            const meta = header.column.columnDef.meta as DataTableColumnMeta | undefined;
            const canSort = header.column.getCanSort();
            const sorted = header.column.getIsSorted();
            const content = header.isPlaceholder ? null : <table.FlexRender header={header} />;
            return (
              <th
                key={header.id}
                colSpan={header.colSpan}
                scope="col"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                className={cn(
                  'border-b border-gray-200 px-3 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-gray-500 uppercase',
                  alignClass(meta),
                  meta?.className,
                )}
              >
                {canSort && !header.isPlaceholder ? (
                  <button
                    type="button"
                    onClick={header.column.getToggleSortingHandler()}
                    className="group inline-flex items-center gap-1 uppercase hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-600"
                  >
                    {content}
                    {sorted === 'asc' ? (
                      <ArrowUp size={13} aria-hidden className="text-gray-700" />
                    ) : sorted === 'desc' ? (
                      <ArrowDown size={13} aria-hidden className="text-gray-700" />
                    ) : (
                      <ChevronsUpDown size={13} aria-hidden className="text-gray-300 group-hover:text-gray-500" />
                    )}
                  </button>
                ) : (
                  content
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );

  const renderRow = (
    row: Row<DataTableFeatures, TData>,
    extra?: { index: number; measure?: (el: Element | null) => void },
  ) => {
    const grouped = row.getIsGrouped();
    const clickable = !grouped && !!onRowClick;
    const activate = () => {
      if (grouped) row.toggleExpanded();
      else onRowClick?.(row.original);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if ((clickable || grouped) && (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget) {
        e.preventDefault();
        activate();
      }
    };
    return (
      <tr
        key={row.id}
        data-index={extra?.index}
        ref={extra?.measure}
        onClick={clickable || grouped ? activate : undefined}
        onKeyDown={onKeyDown}
        tabIndex={clickable || grouped ? 0 : undefined}
        aria-expanded={grouped ? row.getIsExpanded() : undefined}
        data-selected={isRowSelected?.(row.original) || undefined}
        className={cn(
          'border-b border-gray-100 last:border-b-0',
          grouped ? 'cursor-pointer bg-gray-50/70 font-medium hover:bg-gray-100' : 'bg-white',
          clickable && 'cursor-pointer hover:bg-blue-50/50 focus-visible:bg-blue-50/50 focus-visible:outline-none',
          isRowSelected?.(row.original) && 'bg-blue-50',
        )}
      >
        {row.getVisibleCells().map((cell, cellIndex) => {
          const meta = cell.column.columnDef.meta as DataTableColumnMeta | undefined;
          let content: ReactNode;
          if (grouped && cellIndex === 0) {
            const open = row.getIsExpanded();
            const groupColumn = row.groupingColumnId ? table.getColumn(row.groupingColumnId) : undefined;
            const groupMeta = groupColumn?.columnDef.meta as DataTableColumnMeta | undefined;
            const value = row.groupingValue;
            content = (
              <span className="inline-flex items-center gap-1.5" style={{ paddingLeft: row.depth * 16 }}>
                {open ? (
                  <ChevronDown size={15} aria-hidden className="text-gray-500" />
                ) : (
                  <ChevronRight size={15} aria-hidden className="text-gray-500" />
                )}
                <span>
                  {groupMeta?.groupLabel
                    ? groupMeta.groupLabel(value)
                    : value === null || value === undefined || value === ''
                      ? '—'
                      : String(value)}
                </span>
                <span className="rounded-full bg-gray-200 px-1.5 text-xs font-medium text-gray-600">
                  {row.subRows.length}
                </span>
              </span>
            );
          } else if (grouped) {
            content = meta?.aggregate ? meta.aggregate(row.getLeafRows().map((r) => r.original)) : null;
          } else {
            content = <table.FlexRender cell={cell} />;
          }
          return (
            <td
              key={cell.id}
              className={cn('px-3 py-2 align-middle text-sm text-gray-700', alignClass(meta), meta?.className)}
              style={!grouped && row.depth > 0 && cellIndex === 0 ? { paddingLeft: 12 + row.depth * 20 } : undefined}
            >
              {content}
            </td>
          );
        })}
      </tr>
    );
  };

  const emptyRow = (
    <tr>
      <td colSpan={visibleColumnCount} className="px-3 py-12 text-center text-sm text-gray-500">
        {isLoading ? (
          <span className="inline-flex items-center gap-2">
            <Spinner /> Loading…
          </span>
        ) : (
          emptyMessage
        )}
      </td>
    </tr>
  );

  const pager = paginationEnabled && !virtual && (
    <PaginationBar
      pageIndex={pagination.pageIndex}
      pageCount={pageCount}
      pageSize={pagination.pageSize}
      pageSizes={pageSizes}
      rowCount={serverPaging ? props.rowCount : rows.length}
      onPageChange={(pageIndex) => setPagination((p) => ({ ...p, pageIndex }))}
      onPageSizeChange={(pageSize) => setPagination({ pageIndex: 0, pageSize })}
    />
  );

  return (
    <div className={cn('flex min-h-0 flex-col overflow-hidden rounded-lg border border-gray-200 bg-white', className)}>
      {virtual ? (
        <VirtualBody
          rows={rowModel}
          height={height}
          head={head}
          renderRow={renderRow}
          emptyRow={emptyRow}
          label={label}
          hasMore={serverPaging && (props.rowCount ?? Infinity) > rows.length && pageCount > 1}
          onEndReached={() => {
            if (serverPaging) setPagination({ pageIndex: 0, pageSize: pagination.pageSize * 2 });
          }}
          loading={!!isLoading}
        />
      ) : (
        <div className="relative min-h-0 flex-1 overflow-auto">
          <table className="w-full border-collapse" aria-label={label} aria-busy={isLoading || undefined}>
            {head}
            <tbody>{rowModel.length ? rowModel.map((row) => renderRow(row)) : emptyRow}</tbody>
          </table>
          {isLoading && rowModel.length > 0 && (
            <div
              className="absolute inset-x-0 top-0 h-0.5 animate-pulse bg-blue-500"
              role="progressbar"
              aria-label="Loading"
            />
          )}
        </div>
      )}
      {pager}
    </div>
  );
}

interface VirtualBodyProps<TData extends RowData> {
  rows: Row<DataTableFeatures, TData>[];
  height: number | string;
  head: ReactNode;
  renderRow: (
    row: Row<DataTableFeatures, TData>,
    extra: { index: number; measure?: (el: Element | null) => void },
  ) => ReactNode;
  emptyRow: ReactNode;
  label?: string;
  hasMore: boolean;
  loading: boolean;
  onEndReached: () => void;
}

function VirtualBody<TData extends RowData>({
  rows,
  height,
  head,
  renderRow,
  emptyRow,
  label,
  hasMore,
  loading,
  onEndReached,
}: VirtualBodyProps<TData>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in this render only
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => VIRTUAL_ROW_ESTIMATE,
    overscan: VIRTUAL_OVERSCAN,
    getItemKey: (index) => rows[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const atEnd = rows.length > 0 && lastIndex >= rows.length - 1;

  // Ask for more once per row count: the caller's next page arrives as a longer list.
  const requestedAt = useRef(-1);
  useEffect(() => {
    if (atEnd && hasMore && !loading && requestedAt.current !== rows.length) {
      requestedAt.current = rows.length;
      onEndReached();
    }
  }, [atEnd, hasMore, loading, onEndReached, rows.length]);

  const paddingTop = items.length ? items[0].start : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return (
    <div ref={scrollRef} className="min-h-0 overflow-auto" style={{ height }}>
      <table className="w-full border-collapse" aria-label={label} aria-busy={loading || undefined}>
        {head}
        <tbody>
          {rows.length === 0 && emptyRow}
          {paddingTop > 0 && (
            <tr aria-hidden>
              <td style={{ height: paddingTop, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => renderRow(rows[item.index], { index: item.index, measure: virtualizer.measureElement }))}
          {paddingBottom > 0 && (
            <tr aria-hidden>
              <td style={{ height: paddingBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
      {loading && rows.length > 0 && (
        <div className="flex items-center justify-center gap-2 py-2 text-xs text-gray-500">
          <Spinner size={14} /> Loading more…
        </div>
      )}
    </div>
  );
}
