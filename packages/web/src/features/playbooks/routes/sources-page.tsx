import { useState } from 'react';
import { Plus, RotateCw } from 'lucide-react';
import { canManagePlaybookSources } from '@watchdeck/core';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { useSession } from '#web/lib/session.tsx';
import { usePlaybookSources, type PlaybookSource } from '../api/use-sources.ts';
import { SourceDialog } from '../components/source-dialog.tsx';
import { SyncStatus } from '../components/sync-result.tsx';

const col = dataTableColumns<PlaybookSource>();

/** Where the files come from, as one line: the remote (or connection) and ref, or the directory. */
const locationOf = (s: PlaybookSource) =>
  s.directory ??
  `${s.url || s.connection}${s.ref ? ` @ ${s.ref}` : ''}${s.url && s.connection ? ` (${s.connection})` : ''}`;

const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (c) => <span className="font-medium whitespace-nowrap text-gray-900">{c.getValue()}</span>,
  }),
  col.accessor((s) => locationOf(s), {
    id: 'location',
    header: 'Location and Paths',
    enableSorting: false,
    cell: (c) => {
      const paths = c.row.original.paths.join(', ') || '**/*.yaml, **/*.yml';
      return (
        <span className="flex max-w-[16rem] flex-col font-mono text-xs xl:max-w-[28rem]">
          <span className="truncate" title={c.getValue()}>
            {c.row.original.directory ? 'dir ' : 'git '}
            {c.getValue()}
          </span>
          <span className="truncate text-gray-500" title={paths}>
            {paths}
          </span>
        </span>
      );
    },
  }),
  col.accessor((s) => s.schedule ?? '', { id: 'schedule', header: 'Schedule' }),
  col.accessor('playbooks', { header: 'Playbooks' }),
  col.accessor((s) => s.last_sync?.status ?? '', {
    id: 'last_sync',
    header: 'Last Sync',
    cell: (c) => {
      const sync = c.row.original.last_sync;
      if (!sync) return <span className="text-xs text-gray-500">never</span>;
      const errors = sync.details?.summary?.errors ?? 0;
      return (
        <span className="flex flex-col items-start gap-0.5 text-xs">
          <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
            <SyncStatus status={sync.status} />
            {errors > 0 && <span className="text-red-700">{errors} errors</span>}
          </span>
          <RelativeTime at={sync.time_start} />
        </span>
      );
    },
  }),
]);

/**
 * /settings/playbook-sources: where playbooks kept as YAML files are synced from (issue 18 point
 * 5). Everyone who reads playbooks sees the sources and their last sync; admins add, edit, sync
 * and delete them (the server enforces the same).
 */
export function PlaybookSourcesPage() {
  const list = usePlaybookSources();
  const { whoami } = useSession();
  const canManage = canManagePlaybookSources(whoami.roles);
  const [open, setOpen] = useState<{ source: PlaybookSource | null } | null>(null);
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Playbook Sources">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Playbook Sources</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Reload playbook sources"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RotateCw size={15} className={list.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canManage && (
          <Button variant="primary" size="sm" onClick={() => setOpen({ source: null })}>
            <Plus size={14} aria-hidden /> Add Playbook Source
          </Button>
        )}
      </PageTitle>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Playbook sources"
          columns={columns}
          data={list.data ?? []}
          getRowId={(r) => r.id}
          isLoading={list.isFetching}
          onRowClick={(source) => setOpen({ source })}
        />
      )}
      {open && (
        <SourceDialog
          key={open.source?.id ?? 'new'}
          source={open.source}
          canManage={canManage}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}
