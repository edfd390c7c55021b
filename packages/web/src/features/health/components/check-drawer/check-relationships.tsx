import { useNavigate } from 'react-router';
import { DataTable, dataTableColumns } from '../../../../components/data-table/index.ts';
import type { CheckRelationship } from '../../api/check-details.ts';

const col = dataTableColumns<CheckRelationship>();

const COLUMNS = [
  col.accessor('name', { header: 'Name', cell: ({ getValue }) => <span className="font-medium text-gray-900">{getValue()}</span> }),
  col.accessor((r) => (r.type === 'component' ? 'Component' : 'Config'), {
    id: 'type',
    header: 'Type',
    cell: ({ row, getValue }) => (
      <span>
        {getValue()}
        {row.original.kind && <span className="ml-2 text-xs text-gray-400">{row.original.kind}</span>}
      </span>
    ),
  }),
];

/** Relationships tab: a click opens /topology/{id} for a component and /catalog/{id} for a config. */
export function CheckRelationships({ rows, isLoading }: { rows: readonly CheckRelationship[]; isLoading: boolean }) {
  const navigate = useNavigate();
  return (
    <DataTable
      label="Relationships"
      columns={COLUMNS}
      data={rows}
      getRowId={(r) => `${r.type}:${r.id}`}
      isLoading={isLoading}
      onRowClick={(r) => void navigate(r.type === 'component' ? `/topology/${r.id}` : `/catalog/${r.id}`)}
    />
  );
}
