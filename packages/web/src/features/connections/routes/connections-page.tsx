import { useState } from 'react';
import { Plus, RotateCw } from 'lucide-react';
import { connectionTypeDef } from '@watchdeck/core';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useCan } from '#web/lib/session.tsx';
import { useSearchParamState } from '#web/lib/url-state.ts';
import { useConnections, type ConnectionRow } from '../api/use-connections.ts';
import { ConnectionIcon } from '../components/connection-icon.tsx';
import { ConnectionModal } from '../components/connection-modal.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';

const col = dataTableColumns<ConnectionRow>();

const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: ({ row: { original: r } }) => (
      <span className="inline-flex items-center gap-2 font-medium text-gray-900">
        <ConnectionIcon type={r.type} className="text-gray-500" />
        {r.name}
      </span>
    ),
  }),
  col.accessor((r) => connectionTypeDef(r.type)?.title ?? r.type, { id: 'type', header: 'Type' }),
  col.accessor('namespace', { header: 'Namespace' }),
  col.accessor('source', { header: 'Source' }),
  col.accessor('created_at', { header: 'Created', cell: (c) => <RelativeTime at={c.getValue()} /> }),
  col.accessor('updated_at', { header: 'Updated', cell: (c) => <RelativeTime at={c.getValue()} /> }),
  col.accessor((r) => r.created_by?.name ?? '', { id: 'created_by', header: 'Created By' }),
]);

/**
 * /settings/connections: the list plus the add/edit dialog (seed 002 section 2.12). The open
 * connection is kept in the URL (?id=) so a reload or a shared link opens it again.
 */
export function ConnectionsPage() {
  const list = useConnections();
  const canWrite = useCan('connections', 'write');
  const [openId, setOpenId] = useSearchParamState('id');
  const [adding, setAdding] = useState(false);
  const editing = openId ? list.data?.find((c) => c.id === openId) : undefined;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Connections">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Connections</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Reload connections"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RotateCw size={15} className={list.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <Plus size={14} aria-hidden /> Add Connection
          </Button>
        )}
      </PageTitle>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Connections"
          columns={columns}
          data={list.data ?? []}
          getRowId={(r) => r.id}
          isLoading={list.isFetching}
          onRowClick={(r) => setOpenId(r.id)}
          defaultSorting={[{ id: 'name', desc: false }]}
        />
      )}
      <ConnectionModal open={adding} onOpenChange={setAdding} canWrite={canWrite} />
      {editing && (
        <ConnectionModal open onOpenChange={(o) => !o && setOpenId(null)} row={editing} canWrite={canWrite} />
      )}
    </div>
  );
}
