import { useState } from 'react';
import { RefreshCw, Trash2 } from 'lucide-react';
import { playbookSourceSchema, type PlaybookSourceInput } from '@watchdeck/core';
import { FIELD_REQUIRED_MESSAGE, FormField, inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useDeletePlaybookSource } from '../api/delete-source.ts';
import { useSavePlaybookSource } from '../api/save-source.ts';
import { useSyncPlaybookSource } from '../api/sync-source.ts';
import type { PlaybookSource, SourceSync } from '../api/use-sources.ts';
import { SyncResult } from './sync-result.tsx';

type Kind = 'git' | 'directory';

interface Values {
  name: string;
  kind: Kind;
  url: string;
  connection: string;
  ref: string;
  directory: string;
  paths: string;
  schedule: string;
}

const valuesOf = (s: PlaybookSource | null): Values => ({
  name: s?.name ?? '',
  kind: s?.directory ? 'directory' : 'git',
  url: s?.url ?? '',
  connection: s?.connection ?? '',
  ref: s?.ref ?? '',
  directory: s?.directory ?? '',
  paths: (s?.paths ?? []).join('\n'),
  schedule: s?.schedule ?? '',
});

/** The form's values as the API takes them: only the chosen kind's fields. */
function inputOf(v: Values): PlaybookSourceInput {
  const paths = v.paths
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    name: v.name,
    ...(v.kind === 'git' ? { url: v.url, connection: v.connection, ref: v.ref } : { directory: v.directory }),
    paths,
    schedule: v.schedule,
  };
}

/**
 * A playbook source: where playbook files are synced from (a git remote or a directory under the
 * server's allowed roots). Admins add, edit, sync and delete; others see it read-only with its
 * last sync. The form checks with core's schema; the server checks again (roots, schedule).
 */
export function SourceDialog({
  source,
  canManage,
  onClose,
}: {
  source: PlaybookSource | null;
  canManage: boolean;
  onClose: () => void;
}) {
  const [v, setV] = useState<Values>(() => valuesOf(source));
  const [touched, setTouched] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [lastSync, setLastSync] = useState<Pick<SourceSync, 'status' | 'details'> | null>(source?.last_sync ?? null);
  const save = useSavePlaybookSource();
  const sync = useSyncPlaybookSource();
  const remove = useDeletePlaybookSource();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const readOnly = !canManage;
  const set = (k: keyof Values) => (e: { target: { value: string } }) => {
    setV((old) => ({ ...old, [k]: e.target.value }));
    setProblem(undefined);
  };

  const parsed = playbookSourceSchema.safeParse(inputOf(v));
  const fieldError = (field: string) =>
    touched && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === field)?.message : undefined;
  const nameError = touched && !v.name.trim() ? FIELD_REQUIRED_MESSAGE : fieldError('name');

  const submit = async () => {
    setTouched(true);
    if (!parsed.success) return;
    try {
      await save.mutateAsync({ id: source?.id, ...parsed.data });
      toastSuccess(source ? 'Playbook source updated' : 'Playbook source added');
      onClose();
    } catch (err) {
      setProblem(errorMessage(err));
    }
  };

  const syncNow = async () => {
    if (!source) return;
    try {
      const job = await sync.mutateAsync(source.id);
      setLastSync(job);
      const s = job.details?.summary;
      toastSuccess(
        s
          ? `Synced ${source.name}: ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.errors} errors`
          : `Sync of ${source.name} ${job.status.toLowerCase()}`,
      );
    } catch (err) {
      toastError(`Unable to sync ${source.name}: ${errorMessage(err)}`);
    }
  };

  const git = v.kind === 'git';
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={source ? (readOnly ? source.name : `Edit ${source.name}`) : 'Add Playbook Source'}
      description="Playbooks kept as YAML files in a git repository or a directory on the server, synced into the console (source GitOps: read-only here)."
      size="medium"
      dismissOnOutsideClick={false}
      footer={
        canManage ? (
          <>
            {source &&
              (confirmDelete ? (
                <Button
                  variant="danger"
                  className="mr-auto"
                  disabled={remove.isPending}
                  onClick={async () => {
                    try {
                      await remove.mutateAsync(source.id);
                      toastSuccess('Playbook source deleted');
                      onClose();
                    } catch (err) {
                      toastError(`Unable to delete ${source.name}: ${errorMessage(err)}`);
                    }
                  }}
                >
                  <Trash2 size={14} aria-hidden /> Delete it and its playbooks
                </Button>
              ) : (
                <Button variant="ghost" className="mr-auto" onClick={() => setConfirmDelete(true)}>
                  <Trash2 size={14} aria-hidden /> Delete
                </Button>
              ))}
            {source && (
              <Button variant="secondary" onClick={() => void syncNow()} disabled={sync.isPending}>
                {sync.isPending ? <Spinner size={14} /> : <RefreshCw size={14} aria-hidden />} Sync now
              </Button>
            )}
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="primary" type="submit" form="playbook-source-form" disabled={save.isPending}>
              {save.isPending && <Spinner size={14} className="text-white" />}
              {source ? 'Update' : 'Save'}
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        )
      }
    >
      <form
        id="playbook-source-form"
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <FormField label="Name" htmlFor="source-name" required error={nameError}>
          <input
            id="source-name"
            value={v.name}
            onChange={set('name')}
            disabled={readOnly}
            className={inputClass(!!nameError)}
          />
        </FormField>
        <fieldset className="flex gap-4 text-sm" disabled={readOnly}>
          <legend className="sr-only">Where the files are</legend>
          {(['git', 'directory'] as const).map((k) => (
            <label key={k} className="inline-flex items-center gap-1.5">
              <input type="radio" name="source-kind" checked={v.kind === k} onChange={() => setV({ ...v, kind: k })} />
              {k === 'git' ? 'Git repository' : 'Directory on the server'}
            </label>
          ))}
        </fieldset>
        {git ? (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <FormField
              label="URL"
              htmlFor="source-url"
              error={fieldError('url')}
              hint="https://, ssh:// or git@host:path; empty to take the connection's"
              className="sm:col-span-2"
            >
              <input
                id="source-url"
                value={v.url}
                onChange={set('url')}
                disabled={readOnly}
                placeholder="https://github.com/acme/runbooks.git"
                className={inputClass(!!fieldError('url'))}
              />
            </FormField>
            <FormField label="Connection" htmlFor="source-connection" hint="a git connection with the credentials">
              <input
                id="source-connection"
                value={v.connection}
                onChange={set('connection')}
                disabled={readOnly}
                placeholder="connection://default/github"
                className={inputClass()}
              />
            </FormField>
            <FormField label="Ref" htmlFor="source-ref" hint="branch, tag or commit; default the remote's HEAD">
              <input id="source-ref" value={v.ref} onChange={set('ref')} disabled={readOnly} className={inputClass()} />
            </FormField>
          </div>
        ) : (
          <FormField
            label="Directory"
            htmlFor="source-directory"
            error={fieldError('directory') ?? fieldError('url')}
            hint="an absolute path under the data directory's playbooks/ or WATCHDECK_PLAYBOOK_ROOTS"
          >
            <input
              id="source-directory"
              value={v.directory}
              onChange={set('directory')}
              disabled={readOnly}
              placeholder="/srv/playbooks"
              className={inputClass(!!(fieldError('directory') ?? fieldError('url')))}
            />
          </FormField>
        )}
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <FormField label="Paths" htmlFor="source-paths" hint="globs, one a line; default **/*.yaml and **/*.yml">
            <textarea
              id="source-paths"
              rows={2}
              value={v.paths}
              onChange={set('paths')}
              disabled={readOnly}
              placeholder="playbooks/**/*.yaml"
              className={inputClass()}
            />
          </FormField>
          <FormField
            label="Schedule"
            htmlFor="source-schedule"
            error={fieldError('schedule')}
            hint="cron or @every 30m; empty: Sync now only"
          >
            <input
              id="source-schedule"
              value={v.schedule}
              onChange={set('schedule')}
              disabled={readOnly}
              placeholder="@every 30m"
              className={inputClass(!!fieldError('schedule'))}
            />
          </FormField>
        </div>
        {problem && (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
      </form>
      {source && <SyncResult sync={lastSync} />}
    </Modal>
  );
}
