import { useNavigate } from 'react-router';
import { useLinkTo } from '#web/lib/known-routes.tsx';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import type { CheckRelationship } from '#web/features/health/api/check-relationships.ts';

const col = dataTableColumns<CheckRelationship>();

const COLUMNS = [
  col.accessor('name', {
    header: 'Name',
    cell: ({ getValue }) => <span className="font-medium text-gray-900">{getValue()}</span>,
  }),
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

/**
 * Relationships tab: a click opens /topology/{id} for a component and /catalog/{id} for a config,
 * once those screens exist; until then the rows are not links.
 */
export function CheckRelationships({ rows, isLoading }: { rows: readonly CheckRelationship[]; isLoading: boolean }) {
  const navigate = useNavigate();
  const linkTo = useLinkTo();
  const target = (r: CheckRelationship) => linkTo(r.type === 'component' ? `/topology/${r.id}` : `/catalog/${r.id}`);
  const clickable = rows.some((r) => target(r));
  return (
    <DataTable
      label="Relationships"
      columns={COLUMNS}
      data={rows}
      getRowId={(r) => `${r.type}:${r.id}`}
      isLoading={isLoading}
      onRowClick={
        clickable
          ? (r) => {
              const to = target(r);
              if (to) void navigate(to);
            }
          : undefined
      }
    />
  );
}
