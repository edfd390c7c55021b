import { useState } from 'react';
import { AlertTriangle, Check, ExternalLink, Plus, Trash2, Users } from 'lucide-react';
import { RESPONDER_TYPE_LABELS, type ResponderType } from '@watchdeck/core';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { HoverCard } from '#web/components/ui/hover-card.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatDateTime, formatDuration } from '#web/lib/format.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useResponders } from '../api/use-responders.ts';
import { acknowledgeResponder } from '../api/acknowledge-responder.ts';
import { deleteResponder } from '../api/delete-responder.ts';
import type { IncidentDetail, Responder } from '../api/types.ts';
import { RESPONDER_MESSAGES } from '../lib/messages.ts';
import { AddResponderWizard } from './add-responder-wizard.tsx';

const STEPS = [
  { key: 'created_at', label: 'Created' },
  { key: 'acknowledge_time', label: 'Acknowledged' },
  { key: 'signoff_time', label: 'Resolved' },
  { key: 'close_time', label: 'Closed' },
] as const;

/** The step whose time is missing right after a completed step is the current one. */
export function currentStep(
  r: Pick<Responder, 'created_at' | 'acknowledge_time' | 'signoff_time' | 'close_time'>,
): number {
  const idx = STEPS.findIndex((s) => !r[s.key]);
  return idx === -1 ? STEPS.length : idx;
}

function responderName(r: Responder): string {
  return r.person?.name ?? r.team?.name ?? 'Unknown';
}

/** Created, Acknowledged, Resolved (sign-off), Closed (seed 001 section 4). */
function ResponderTimeline({ responder }: { responder: Responder }) {
  const current = currentStep(responder);
  const ack = responder.acknowledge_time
    ? new Date(responder.acknowledge_time).getTime() - new Date(responder.created_at).getTime()
    : null;
  return (
    <div>
      <ol className="space-y-2" aria-label="Responder timeline">
        {STEPS.map((s, i) => {
          const at = responder[s.key];
          return (
            <li key={s.key} className="flex items-center gap-2" aria-current={i === current ? 'step' : undefined}>
              <span
                className={cn(
                  'inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full border text-[10px]',
                  at
                    ? 'border-green-600 bg-green-600 text-white'
                    : i === current
                      ? 'border-blue-600 text-blue-700'
                      : 'border-gray-300 text-gray-400',
                )}
              >
                {at ? <Check size={11} aria-hidden /> : i + 1}
              </span>
              <span
                className={cn(
                  'flex-1',
                  i === current ? 'font-medium text-blue-700' : at ? 'text-gray-900' : 'text-gray-400',
                )}
              >
                {s.label}
              </span>
              <span className="text-xs text-gray-500">{at ? formatDateTime(at) : ''}</span>
            </li>
          );
        })}
      </ol>
      {ack !== null && (
        <p className="mt-2 text-xs text-gray-600">
          Time taken to acknowledge: <span className="font-medium">{formatDuration(ack)}</span>
        </p>
      )}
    </div>
  );
}

function ResponderCard({ responder: r }: { responder: Responder }) {
  const type = (r.properties?.responderType as ResponderType | undefined) ?? (r.type as ResponderType);
  return (
    <div className="space-y-3">
      <div>
        <p className="font-medium text-gray-900">{responderName(r)}</p>
        <p className="text-xs text-gray-500">
          {RESPONDER_TYPE_LABELS[type] ?? type}
          {r.created_by?.name ? ` · added by ${r.created_by.name}` : ''}
        </p>
      </div>
      {r.external_id && (
        <p className="text-xs">
          Ticket:{' '}
          {r.external_url ? (
            <a href={r.external_url} target="_blank" rel="noreferrer" className="text-blue-700 hover:underline">
              {r.external_id}
            </a>
          ) : (
            r.external_id
          )}
        </p>
      )}
      {r.dispatch_error && <p className="rounded bg-red-50 p-2 text-xs text-red-700">{r.dispatch_error}</p>}
      <ResponderTimeline responder={r} />
    </div>
  );
}

function DispatchState({ responder: r }: { responder: Responder }) {
  if (r.dispatch_status === 'pending') return <Spinner size={12} className="text-gray-400" />;
  if (r.dispatch_status === 'failed')
    return (
      <AlertTriangle size={13} className="text-red-600" aria-label={`Sending failed: ${r.dispatch_error ?? ''}`} />
    );
  if (r.dispatch_status === 'logged')
    return (
      <span
        className="text-xs text-amber-700"
        title="No mail server is configured: the message was written to the server log"
      >
        logged only
      </span>
    );
  if (r.external_id)
    return r.external_url ? (
      <a
        href={r.external_url}
        target="_blank"
        rel="noreferrer"
        className="inline-flex items-center gap-0.5 text-xs whitespace-nowrap text-blue-700 hover:underline"
      >
        {r.external_id} <ExternalLink size={11} aria-hidden />
      </a>
    ) : (
      <span className="text-xs whitespace-nowrap text-gray-500">{r.external_id}</span>
    );
  return null;
}

/** The incident's responders with their timelines (hover 1 s), and the add wizard. */
export function RespondersSection({
  incident,
  canWrite,
  onChanged,
}: {
  incident: IncidentDetail;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const me = useWhoami().user.id;
  const responders = useResponders(incident.id);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Responder | null>(null);
  const list = responders.data ?? [];

  return (
    <div className="space-y-1.5">
      {responders.isLoading && <Spinner size={14} />}
      {!responders.isLoading && list.length === 0 && <p className="text-sm text-gray-400">No responders yet.</p>}
      <ul className="space-y-1" aria-label="Responders">
        {list.map((r) => (
          // in a narrow panel the ticket state and actions wrap below the name rather than cutting it
          <li
            key={r.id}
            className="group flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm"
            data-responder-id={r.id}
          >
            <HoverCard
              trigger={
                <span
                  tabIndex={0}
                  className="inline-flex min-w-0 items-center gap-2 rounded focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  {r.person ? (
                    <Avatar person={r.person} />
                  ) : (
                    <span className="inline-flex h-6 w-6 items-center justify-center rounded-full bg-gray-100 text-gray-500">
                      <Users size={12} aria-hidden />
                    </span>
                  )}
                  <span className="min-w-0 break-words text-gray-900">{responderName(r)}</span>
                  {!r.person && (
                    <span className="shrink-0 text-xs whitespace-nowrap text-gray-400">
                      {RESPONDER_TYPE_LABELS[r.type as ResponderType] ?? r.type}
                    </span>
                  )}
                </span>
              }
            >
              <ResponderCard responder={r} />
            </HoverCard>
            <DispatchState responder={r} />
            <span className="ml-auto flex shrink-0 items-center gap-0.5">
              {r.person?.id === me && !r.acknowledge_time && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="h-6 px-1.5"
                  onClick={async () => {
                    try {
                      await acknowledgeResponder(r.id);
                      onChanged();
                    } catch (err) {
                      toastError(err);
                    }
                  }}
                >
                  Acknowledge
                </Button>
              )}
              {canWrite && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="h-6 w-6 opacity-60 group-hover:opacity-100"
                  aria-label={`Delete responder ${responderName(r)}`}
                  onClick={() => setDeleting(r)}
                >
                  <Trash2 size={12} aria-hidden />
                </Button>
              )}
            </span>
          </li>
        ))}
      </ul>
      {canWrite && (
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus size={14} aria-hidden /> Add Responder
        </Button>
      )}
      {adding && (
        <AddResponderWizard
          incident={incident}
          onClose={() => setAdding(false)}
          onAdded={() => {
            toastSuccess(RESPONDER_MESSAGES.added);
            onChanged();
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={RESPONDER_MESSAGES.deleteTitle}
        message={RESPONDER_MESSAGES.deleteMessage}
        onConfirm={async () => {
          try {
            await deleteResponder(deleting!.id);
          } catch (err) {
            toastError(err);
            throw err;
          }
          toastSuccess(RESPONDER_MESSAGES.deleted);
          onChanged();
        }}
      />
    </div>
  );
}
