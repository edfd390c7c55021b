import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Ban, Check, Download, RotateCcw } from 'lucide-react';
import { AccessGuard } from '#web/components/auth/index.ts';
import { Button, buttonClass } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuText,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { downloadActionLogs } from '../api/download-logs.ts';
import { useRunCommand } from '../api/run-commands.ts';
import { useRun, useRunActions } from '../api/use-run.ts';
import { RUN_FINAL, type Run } from '../api/types.ts';
import { ActionOutput } from '../components/action-output.tsx';
import { ActionSteps, INITIALIZATION, type Step } from '../components/action-steps.tsx';
import { RunHeader } from '../components/run-header.tsx';
import { AnsiText } from '../lib/ansi.tsx';

/** A failed run with an error gets a first, synthetic 'Initialization' step holding that error. */
function stepsOf(run: Run, actions: readonly Step[]): Step[] {
  if (run.status !== 'failed' || !run.error) return [...actions];
  const init: Step = {
    id: INITIALIZATION,
    name: INITIALIZATION,
    status: 'failed',
    start_time: run.start_time ?? run.created_at,
    end_time: run.end_time,
    synthetic: true,
  };
  return [init, ...actions];
}

function DownloadLogs({ runId, actions }: { runId: string; actions: readonly Step[] }) {
  const real = actions.filter((a) => !a.synthetic && a.status !== 'skipped');
  const download = async (a: Step) => {
    try {
      await downloadActionLogs(runId, a);
      toastSuccess('Downloaded logs');
    } catch {
      toastError('Failed to download logs');
    }
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={buttonClass('secondary', 'sm')}>
        <Download size={14} aria-hidden /> Download logs
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {real.length === 0 && <DropdownMenuText>No action has run yet</DropdownMenuText>}
        {real.map((a) => (
          <DropdownMenuItem key={a.id} onSelect={() => void download(a)}>
            {a.name}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function Commands({ run }: { run: Run }) {
  const navigate = useNavigate();
  const rerun = useRunCommand('rerun');
  const cancel = useRunCommand('cancel');
  const approve = useRunCommand('approve');
  const final = RUN_FINAL.has(run.status);
  return (
    <AccessGuard resource="playbook_runs" action="write">
      {run.status === 'pending_approval' && (
        <Button
          variant="primary"
          size="sm"
          disabled={approve.isPending}
          onClick={() =>
            approve.mutateAsync(run.id).then(
              () => toastSuccess('Run approved'),
              (err) => void toastError(err),
            )
          }
        >
          {approve.isPending ? <Spinner size={14} className="text-white" /> : <Check size={14} aria-hidden />}
          Approve
        </Button>
      )}
      {!final && (
        <Button
          variant="secondary"
          size="sm"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutateAsync(run.id).then(
              () => toastSuccess('Run cancelled'),
              (err) => void toastError(err),
            )
          }
        >
          <Ban size={14} aria-hidden /> Cancel
        </Button>
      )}
      <Button
        variant="secondary"
        size="sm"
        disabled={rerun.isPending}
        onClick={() =>
          rerun.mutateAsync(run.id).then(
            (res) => res.run_id && void navigate(`/playbooks/runs/${res.run_id}`),
            (err) => void toastError(err),
          )
        }
      >
        {rerun.isPending ? <Spinner size={14} /> : <RotateCcw size={14} aria-hidden />}
        Re-run playbook
      </Button>
    </AccessGuard>
  );
}

/**
 * /playbooks/runs/{id} (seed 002 section 2.16): the run's fields, its steps and the selected step's
 * output, Download logs, Re-run, Approve and Cancel. The run is polled every 2 s and the selected
 * action every 1 s until final (seed 002 section 4).
 */
export function RunDetailPage() {
  const { id = '' } = useParams();
  const run = useRun(id);
  const actions = useRunActions(id, run.data?.status);
  const [chosen, setChosen] = useState<string | undefined>();

  if (run.isPending) return <Spinner className="m-6" />;
  if (run.error) return <ErrorAlert error={run.error} className="m-4" />;
  if (!run.data) return <p className="m-6 text-sm text-gray-600">Run not found</p>;
  const r = run.data;
  const steps = stepsOf(r, actions.data ?? []);
  // until someone picks a step, follow the latest one that is not skipped
  const selectable = steps.filter((s) => s.status !== 'skipped');
  const selected = steps.find((s) => s.id === chosen && s.status !== 'skipped') ?? selectable.at(-1);
  const busy = !RUN_FINAL.has(r.status);

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 overflow-auto p-4" aria-busy={busy || undefined}>
      <PageTitle documentTitle={`${r.playbook?.title || r.playbook?.name || 'Run'} · run`}>
        <Link to="/playbooks" className="text-gray-500 hover:text-gray-800">
          Playbooks
        </Link>
        <span className="text-gray-400">/</span>
        <Link to="/playbooks/runs" className="text-gray-500 hover:text-gray-800">
          Runs
        </Link>
        <span className="text-gray-400">/</span>
        <span className="font-semibold text-gray-900">{r.playbook?.title || r.playbook?.name}</span>
      </PageTitle>
      <div className="flex flex-wrap items-center justify-end gap-2">
        <Commands run={r} />
        <DownloadLogs runId={r.id} actions={steps} />
      </div>
      <RunHeader run={r} />
      <div className="grid min-h-0 gap-3 md:grid-cols-[16rem_1fr]">
        <div className="rounded-lg border border-gray-200 bg-white p-2">
          {steps.length === 0 ? (
            <p className="p-2 text-sm text-gray-500">{busy ? 'Waiting for the first action…' : 'No actions ran.'}</p>
          ) : (
            <ActionSteps steps={steps} selected={selected?.id} onSelect={setChosen} />
          )}
        </div>
        <div className="min-w-0 rounded-lg border border-gray-200 bg-white p-3">
          {!selected ? (
            <p className="text-sm text-gray-500">
              {r.status === 'pending_approval' ? 'Waiting for approval.' : busy ? 'Not started yet.' : 'No result'}
            </p>
          ) : selected.synthetic ? (
            <section aria-label={`Output of ${INITIALIZATION}`} className="flex flex-col gap-2">
              <h3 className="font-medium text-gray-900">{INITIALIZATION}</h3>
              <pre className="rounded-md bg-red-50 p-3 font-mono text-xs whitespace-pre-wrap text-red-800 ring-1 ring-red-200">
                <AnsiText text={r.error ?? ''} />
              </pre>
            </section>
          ) : (
            <ActionOutput key={selected.id} actionId={selected.id} />
          )}
        </div>
      </div>
    </div>
  );
}
