import { useState } from 'react';
import { CheckCircle2, Circle, ListChecks, Trash2 } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { RouteLink } from '#web/components/ui/route-link.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { toastFailure } from '#web/lib/toast.ts';
import { deleteEvidence } from '../api/delete-evidence.ts';
import { updateEvidences } from '../api/update-evidences.ts';
import type { Evidence } from '../api/types.ts';
import { EVIDENCE_TYPE_LABELS, evidenceHealth, evidenceHref, evidenceTitle } from '../lib/evidence.ts';
import { EvidenceIcon, HealthDot } from './evidence-icon.tsx';

/** seed 001 section 8 */
export const EVIDENCE_MESSAGES = {
  deleteFailed: 'Evidence delete failed',
  removeFailed: 'Removing evidence from definition of done failed',
  addFailed: 'Marking evidence as part of definition of done failed',
  removeTitle: 'Remove from definition of done ?',
  removeMessage: 'Are you sure you want to remove the evidence from definition of done ?',
} as const;

const failed = (message: string) => (err: unknown) => {
  toastFailure(message, err);
  throw err;
};

/** Context lines shown around selected log lines (seed 001 section 9). */
const LOG_CONTEXT_LINES = 3;

function LogLines({ evidence }: { evidence: Evidence }) {
  const lines = (evidence.evidence?.lines as { timestamp?: string; message?: string }[] | undefined) ?? [];
  const selected = new Set((evidence.evidence?.selected_lines as number[] | undefined) ?? lines.map((_, i) => i));
  if (!lines.length) return null;
  // the selected lines with their context, gaps marked
  const keep = lines.map((_, i) => [...selected].some((s) => Math.abs(s - i) <= LOG_CONTEXT_LINES));
  return (
    <pre className="mt-1 max-h-48 overflow-auto rounded bg-gray-900 p-2 text-[11px] leading-relaxed text-gray-200">
      {lines.map((l, i) =>
        keep[i] ? (
          <div key={i} className={selected.has(i) ? 'bg-yellow-500/20 text-yellow-100' : undefined}>
            {l.timestamp ? `${l.timestamp} ` : ''}
            {l.message}
          </div>
        ) : keep[i - 1] ? (
          <div key={i} className="text-gray-500">
            …
          </div>
        ) : null,
      )}
    </pre>
  );
}

/** One evidence under a hypothesis: what it points at, and its definition-of-done actions. */
export function EvidenceItem({
  evidence,
  canWrite,
  onChanged,
}: {
  evidence: Evidence;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const [confirm, setConfirm] = useState<'remove' | 'delete' | null>(null);
  const href = evidenceHref(evidence);
  const title = evidenceTitle(evidence);
  const addToDod = async () => {
    await updateEvidences([evidence.id], { definition_of_done: true })
      .catch(failed(EVIDENCE_MESSAGES.addFailed))
      .catch(() => undefined);
    onChanged();
  };
  return (
    <li className="group flex items-start gap-2 rounded-md px-2 py-1.5 hover:bg-gray-50" data-evidence-id={evidence.id}>
      <EvidenceIcon type={evidence.type} className="mt-0.5" />
      <div className="min-w-0 flex-1">
        {/* the title wraps rather than being cut: a narrow column still shows all of it */}
        <div className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-sm">
          <HealthDot health={evidenceHealth(evidence)} />
          {/* a resource's screen may not exist yet (catalog, topology item): then its name as text */}
          <RouteLink
            to={href}
            className="min-w-0 font-medium break-words text-blue-700 hover:underline"
            textClassName={cn('min-w-0 break-words', href ? 'font-medium text-gray-900' : 'text-gray-800')}
          >
            <span data-evidence-title>{title}</span>
          </RouteLink>
          <span className="shrink-0 text-xs text-gray-400">{EVIDENCE_TYPE_LABELS[evidence.type]}</span>
          {evidence.definition_of_done && (
            <span className="inline-flex shrink-0 items-center gap-0.5 rounded bg-green-50 px-1.5 text-[11px] font-medium text-green-700">
              <ListChecks size={11} aria-hidden /> Definition of done
            </span>
          )}
        </div>
        {evidence.description && evidence.description !== title && (
          <p className="text-xs text-gray-600">{evidence.description}</p>
        )}
        {evidence.type === 'log' && <LogLines evidence={evidence} />}
        <p className="text-[11px] text-gray-400">
          {evidence.created_by?.name ?? evidence.external_created_by ?? 'System'} ·{' '}
          <Tooltip content={formatDateTime(evidence.created_at)}>
            <span>{formatRelative(evidence.created_at)}</span>
          </Tooltip>
        </p>
      </div>
      {canWrite && (
        <div className="flex shrink-0 gap-0.5 opacity-60 group-hover:opacity-100">
          {evidence.definition_of_done ? (
            <Button
              variant="ghost"
              size="icon"
              className="h-7 w-7"
              aria-label="Remove from definition of done"
              title="Remove from definition of done"
              onClick={() => setConfirm('remove')}
            >
              <CheckCircle2 size={14} className="text-green-600" aria-hidden />
            </Button>
          ) : (
            <Button
              variant="ghost"
              size="icon"
              className="h-7 w-7"
              aria-label="Add to definition of done"
              title="Add to definition of done"
              onClick={() => void addToDod()}
            >
              <Circle size={14} aria-hidden />
            </Button>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="h-7 w-7"
            aria-label="Delete evidence"
            title="Delete evidence"
            onClick={() => setConfirm('delete')}
          >
            <Trash2 size={14} aria-hidden />
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirm === 'remove'}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={EVIDENCE_MESSAGES.removeTitle}
        message={EVIDENCE_MESSAGES.removeMessage}
        confirmLabel="Remove"
        onConfirm={async () => {
          await updateEvidences([evidence.id], { definition_of_done: false }).catch(
            failed(EVIDENCE_MESSAGES.removeFailed),
          );
          onChanged();
        }}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(o) => !o && setConfirm(null)}
        title="Delete Evidence ?"
        message={
          <>
            Delete the evidence <strong>{title}</strong>?
          </>
        }
        onConfirm={async () => {
          await deleteEvidence(evidence.id).catch(failed(EVIDENCE_MESSAGES.deleteFailed));
          onChanged();
        }}
      />
    </li>
  );
}
