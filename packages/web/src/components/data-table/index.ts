export { DataTable, NO_DATA_MESSAGE } from './data-table.tsx';
export type { DataTablePagination } from './data-table.tsx';
export { dataTableColumns } from './features.ts';
export type { DataTableColumn } from './features.ts';
