import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { AccessGuard } from '#web/components/auth/index.ts';
import { RunPlaybookDialog } from '#web/components/playbook-run/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useDeletePlaybook } from '../api/delete-playbook.ts';
import { usePlaybooks } from '../api/use-playbooks.ts';
import type { Playbook } from '../api/types.ts';
import { PlaybookCard } from '../components/playbook-card.tsx';
import { SpecEditorDialog } from '../components/spec-editor-dialog.tsx';

/** The group of a playbook without a category (seed 002 section 2.16). */
const DEFAULT_CATEGORY = 'Other';

/** Playbooks by category, categories by name with 'Other' last. */
function groupByCategory(list: readonly Playbook[]): [string, Playbook[]][] {
  const groups = new Map<string, Playbook[]>();
  for (const p of list) {
    const c = p.category?.trim() || DEFAULT_CATEGORY;
    groups.set(c, [...(groups.get(c) ?? []), p]);
  }
  return [...groups].sort(([a], [b]) =>
    a === DEFAULT_CATEGORY ? 1 : b === DEFAULT_CATEGORY ? -1 : a.localeCompare(b),
  );
}

/** /playbooks: cards grouped by category, with an add button (seed 002 section 2.16). */
export function PlaybooksPage() {
  const playbooks = usePlaybooks();
  const remove = useDeletePlaybook();
  const [editing, setEditing] = useState<Playbook | null | undefined>();
  const [deleting, setDeleting] = useState<Playbook | undefined>();
  const [running, setRunning] = useState<Playbook | undefined>();
  const groups = useMemo(() => groupByCategory(playbooks.data ?? []), [playbooks.data]);

  return (
    <div className="flex h-full min-h-0 flex-col gap-4 overflow-auto p-4" aria-busy={playbooks.isFetching || undefined}>
      <PageTitle documentTitle="Playbooks">
        <span className="font-semibold text-gray-900">Playbooks</span>
        <AccessGuard resource="playbooks" action="write">
          <Button variant="primary" size="sm" onClick={() => setEditing(null)}>
            <Plus size={14} aria-hidden /> Add Playbook
          </Button>
        </AccessGuard>
      </PageTitle>
      {playbooks.isPending ? (
        <Spinner />
      ) : playbooks.error ? (
        <ErrorAlert error={playbooks.error} />
      ) : groups.length === 0 ? (
        <p className="text-sm text-gray-500">No playbooks yet.</p>
      ) : (
        groups.map(([category, list]) => (
          <section key={category} aria-labelledby={`category-${category}`}>
            <h2 id={`category-${category}`} className="mb-2 text-sm font-semibold text-gray-700">
              {category}
            </h2>
            <div className="grid grid-cols-[repeat(auto-fill,minmax(17rem,1fr))] gap-3">
              {list.map((p) => (
                <PlaybookCard
                  key={p.id}
                  playbook={p}
                  onEdit={() => setEditing(p)}
                  onDelete={() => setDeleting(p)}
                  onRun={() => setRunning(p)}
                />
              ))}
            </div>
          </section>
        ))
      )}
      {editing !== undefined && (
        <SpecEditorDialog
          key={editing?.id ?? 'new'}
          playbook={editing}
          open
          onOpenChange={(o) => {
            if (!o) setEditing(undefined);
          }}
        />
      )}
      {running && (
        <RunPlaybookDialog
          playbook={running}
          open
          onOpenChange={(o) => {
            if (!o) setRunning(undefined);
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => {
          if (!o) setDeleting(undefined);
        }}
        title="Delete Playbook"
        message={`Delete ${deleting?.title || deleting?.name}? Its runs stay in the history.`}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(deleting!.id);
            toastSuccess('Playbook deleted');
          } catch (err) {
            toastError(`Unable to delete playbook spec: ${errorMessage(err)}`);
            throw err;
          }
        }}
      />
    </div>
  );
}
