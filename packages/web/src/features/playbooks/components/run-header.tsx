import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatDuration, formatRelative } from '#web/lib/format.ts';
import { useLinkTo } from '#web/lib/known-routes.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import type { Run } from '../api/types.ts';
import { RunStatusBadge } from './run-status.tsx';

function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'col-span-2 min-w-0' : 'min-w-0'}>
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd className="truncate text-sm text-gray-900">{children}</dd>
    </div>
  );
}

const When = ({ at }: { at: string | null }) =>
  at ? <time title={formatDateTime(at)}>{formatRelative(at)}</time> : <span className="text-gray-400">–</span>;

/** Where the run's resource lives in the app (seed 002 section 2.1 links; a check opens its drawer). */
function resourceLink(run: Run): { to: string; name: string; kind: string } | undefined {
  if (run.check) return { to: `/health?checkId=${run.check.id}`, name: run.check.name, kind: 'Check' };
  if (run.config) return { to: `/catalog/${run.config.id}`, name: run.config.name, kind: 'Config' };
  if (run.component) return { to: `/topology/${run.component.id}`, name: run.component.name, kind: 'Component' };
  return undefined;
}

/** The parameters the run was given, in a dialog (seed 002 section 2.16 "Params dialog"). */
function ParamsButton({ params }: { params: Record<string, unknown> }) {
  const [open, setOpen] = useState(false);
  const entries = Object.entries(params ?? {});
  return (
    <>
      <button type="button" className="text-sm text-blue-700 hover:underline" onClick={() => setOpen(true)}>
        Params ({entries.length})
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Parameters" size="small">
        {entries.length === 0 ? (
          <p className="text-sm text-gray-500">No parameters.</p>
        ) : (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
            {entries.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="font-medium text-gray-700">{k}</dt>
                <dd className="font-mono break-all whitespace-pre-wrap text-gray-900">
                  {typeof v === 'string' ? v : JSON.stringify(v)}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Modal>
    </>
  );
}

/**
 * Every field of seed 002 section 2.16: the playbook (link) with its Params dialog, the resource,
 * status, started, scheduled, duration, queued, trigger source and triggered by.
 */
export function RunHeader({ run }: { run: Run }) {
  const linkTo = useLinkTo();
  const res = resourceLink(run);
  const resTo = res && linkTo(res.to.split('?')[0]) ? res.to : undefined;
  const duration =
    run.start_time && run.end_time ? new Date(run.end_time).getTime() - new Date(run.start_time).getTime() : null;
  const title = run.playbook?.title || run.playbook?.name || run.playbook_id;
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-gray-200 bg-white p-4 md:grid-cols-4 xl:grid-cols-5">
      <Field label="Playbook" wide>
        <span className="flex min-w-0 items-center gap-2">
          <Link
            to={`/playbooks/runs?playbook=${run.playbook_id}`}
            className="font-medium text-blue-700 hover:underline"
          >
            {title}
          </Link>
          <ParamsButton params={run.parameters} />
        </span>
      </Field>
      <Field label="Status">
        <RunStatusBadge status={run.status} />
      </Field>
      <Field label={res?.kind ?? 'Resource'}>
        {res ? (
          resTo ? (
            <Link to={resTo} className="text-blue-700 hover:underline">
              {res.name}
            </Link>
          ) : (
            res.name
          )
        ) : (
          <span className="text-gray-400">–</span>
        )}
      </Field>
      <Field label="Started">
        <When at={run.start_time} />
      </Field>
      <Field label="Scheduled">
        <When at={run.scheduled_time} />
      </Field>
      <Field label="Duration">
        {duration === null ? <span className="text-gray-400">–</span> : formatDuration(duration)}
      </Field>
      <Field label="Queued">
        <When at={run.created_at} />
      </Field>
      <Field label="Trigger source">{run.trigger_source}</Field>
      <Field label="Triggered by">{run.creator?.name ?? <span className="text-gray-400">–</span>}</Field>
      {run.parent_id && (
        <Field label="Re-run of">
          <Link to={`/playbooks/runs/${run.parent_id}`} className="text-blue-700 hover:underline">
            {run.parent_id.slice(0, 8)}
          </Link>
        </Field>
      )}
    </dl>
  );
}
