import type { ReactNode } from 'react';
import {
  columnGroupingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  createExpandedRowModel,
  createGroupedRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  metaHelper,
  rowExpandingFeature,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';

/** What a column can say about itself to the generic table beyond TanStack's options. */
export interface DataTableColumnMeta {
  /** Extra classes for the header and body cells (widths, alignment). */
  className?: string;
  align?: 'left' | 'right' | 'center';
  /**
   * What a group row shows in this column when the table is grouped: it gets the original
   * rows of the group (e.g. a worst-status badge or a count).
   */
  aggregate?: (rows: unknown[]) => ReactNode;
  /** How a group row names its group when the table is grouped by this column. */
  groupLabel?: (value: unknown) => ReactNode;
}

/** The one feature set every data table uses; the row models run in this order. */
export const dataTableFeatures = tableFeatures({
  columnVisibilityFeature,
  columnGroupingFeature,
  groupedRowModel: createGroupedRowModel(),
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, text: sortFn_text, datetime: sortFn_datetime, basic: sortFn_basic },
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
  columnMeta: metaHelper<DataTableColumnMeta>(),
});

export type DataTableFeatures = typeof dataTableFeatures;

/** A column definition for DataTable. The value type is left open so one list can mix accessors. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's ColumnDef is invariant in its value type
export type DataTableColumn<TData extends RowData> = ColumnDef<DataTableFeatures, TData, any>;

/** `const col = dataTableColumns<Agent>(); const columns = col.columns([col.accessor('name', {...})])` */
export const dataTableColumns = <TData extends RowData>() => createColumnHelper<DataTableFeatures, TData>();
