export { DataTable, NO_DATA_MESSAGE, VIRTUAL_OVERSCAN, VIRTUAL_ROW_ESTIMATE } from './data-table.tsx';
export type { DataTableProps, DataTablePagination } from './data-table.tsx';
export { PaginationBar } from './pagination.tsx';
export { dataTableColumns, dataTableFeatures } from './features.ts';
export type { DataTableColumn, DataTableColumnMeta, DataTableFeatures } from './features.ts';
