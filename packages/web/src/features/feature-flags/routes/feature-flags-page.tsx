import { useState } from 'react';
import { Lock, Plus, RotateCw } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useCan } from '#web/lib/session.tsx';
import { useFeatureFlags, type FeatureFlag } from '../api/use-feature-flags.ts';
import { FeatureFlagForm } from '../components/feature-flag-form.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';

const col = dataTableColumns<FeatureFlag>();

const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (c) => <span className="font-medium text-gray-900">{c.getValue()}</span>,
  }),
  col.accessor('value', { header: 'Value', cell: (c) => <code className="text-xs">{c.getValue()}</code> }),
  col.accessor('description', { header: 'Description', enableSorting: false }),
  col.accessor('source', {
    header: 'Source',
    cell: (c) =>
      c.getValue() === 'local' ? (
        <span className="inline-flex items-center gap-1 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">
          <Lock size={11} aria-hidden /> local
        </span>
      ) : (
        <span className="text-xs text-gray-600">database</span>
      ),
  }),
  col.accessor((r) => r.created_by?.name ?? '', { id: 'created_by', header: 'Created By' }),
  col.accessor('created_at', { header: 'Created', cell: (c) => <RelativeTime at={c.getValue()} /> }),
  col.accessor('updated_at', { header: 'Updated', cell: (c) => <RelativeTime at={c.getValue()} /> }),
]);

type Open = { flag: FeatureFlag | null } | null;

/** /settings/feature-flags: the list plus the add/update/delete form (seed 002 section 2.13). */
export function FeatureFlagsPage() {
  const list = useFeatureFlags();
  const canWrite = useCan('feature_flags', 'write');
  const [open, setOpen] = useState<Open>(null);
  const title = !open?.flag ? 'Add Feature Flag' : open.flag.source === 'local' ? 'Feature Flag' : 'Edit Feature Flag';
  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Feature Flags">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Feature Flags</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Reload feature flags"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RotateCw size={15} className={list.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setOpen({ flag: null })}>
            <Plus size={14} aria-hidden /> Add Feature Flag
          </Button>
        )}
      </PageTitle>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Feature flags"
          columns={columns}
          data={list.data ?? []}
          getRowId={(r) => `${r.source}:${r.name}`}
          isLoading={list.isFetching}
          onRowClick={(flag) => setOpen({ flag })}
        />
      )}
      <Modal open={!!open} onOpenChange={(o) => !o && setOpen(null)} title={title} size="small">
        {open && (
          <FeatureFlagForm
            key={open.flag?.name ?? 'new'}
            flag={open.flag}
            canWrite={canWrite}
            onDone={() => setOpen(null)}
          />
        )}
      </Modal>
    </div>
  );
}
