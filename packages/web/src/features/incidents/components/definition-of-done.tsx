import { useMemo, useState } from 'react';
import { CheckCircle2, Circle, Pencil, Plus, X } from 'lucide-react';
import { DOD_SCRIPT_EXAMPLES, evaluatesAutomatically, type EvidenceType } from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { toastFailure } from '#web/lib/toast.ts';
import { useBusy } from '#web/lib/use-busy.ts';
import { createEvidence } from '../api/create-evidence.ts';
import { updateEvidences } from '../api/update-evidences.ts';
import type { Evidence, Hypothesis } from '../api/types.ts';
import { EVIDENCE_TYPE_LABELS, allEvidences, evidenceTitle, rootHypothesis } from '../lib/evidence.ts';
import { EvidenceIcon } from './evidence-icon.tsx';
import { EVIDENCE_MESSAGES } from './evidence-item.tsx';

/** seed 001 section 8 */
const DOD_MESSAGES = {
  noneLeft: 'There are no evidences which are not part of definition of done',
  loading: 'Loading evidences please wait...',
  resolved: 'Mark as resolved',
  notResolved: 'not resolved',
} as const;

/** When to look again after an automatic definition was written: the server's queue polls every second. */
const JUDGED_AFTER_MS = 2500;

function ScriptField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <div className="space-y-2">
      <label className="block space-y-1 text-sm font-medium text-gray-700">
        <span>Script (CEL, optional)</span>
        <textarea
          rows={3}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          className={cn(inputClass(), 'font-mono text-xs')}
          placeholder='check.status == "healthy"'
        />
      </label>
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        <span className="text-gray-500">Examples:</span>
        {DOD_SCRIPT_EXAMPLES.map((ex) => (
          <button
            key={ex.label}
            type="button"
            onClick={() => onChange(ex.script)}
            title={ex.script}
            className="rounded-full border border-gray-200 px-2 py-0.5 text-gray-700 hover:bg-gray-50"
          >
            {ex.label}
          </button>
        ))}
      </div>
      <p className="text-xs text-gray-500">
        Without a script, a check, component or config counts as done once healthy (a check for 5 minutes), an insight
        once resolved, a config change once its config is healthy, a log once its component is healthy. The server
        judges it at once, then every minute.
      </p>
    </div>
  );
}

/** Add Definition of Done (seed 001 section 4): Automatic (evidence, then a script) or Manual (a comment). */
function AddDefinitionOfDoneDialog({
  hypotheses,
  onClose,
  onChanged,
}: {
  hypotheses: Hypothesis[] | undefined;
  onClose: () => void;
  onChanged: () => void;
}) {
  const me = useWhoami().user.id;
  const [mode, setMode] = useState<'automatic' | 'manual'>('automatic');
  const [step, setStep] = useState(0);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const [script, setScript] = useState('');
  const [comment, setComment] = useState('');
  const [busy, run] = useBusy(EVIDENCE_MESSAGES.addFailed);
  // only what the server can judge (every type but comment; a log needs its component)
  const candidates = useMemo(
    () => allEvidences(hypotheses ?? []).filter((e) => evaluatesAutomatically(e) && !e.definition_of_done),
    [hypotheses],
  );
  const groups = useMemo(() => {
    const map = new Map<EvidenceType, Evidence[]>();
    for (const e of candidates) map.set(e.type, [...(map.get(e.type) ?? []), e]);
    return [...map.entries()];
  }, [candidates]);

  const add = () =>
    run(async () => {
      if (mode === 'manual') {
        const root = rootHypothesis(hypotheses ?? []);
        if (!root) throw new Error('The incident has no hypothesis to attach the definition of done to');
        await createEvidence({
          hypothesis_id: root.id,
          type: 'comment',
          description: comment.trim(),
          evidence: { comment: comment.trim() },
          definition_of_done: true,
          created_by: me,
        });
      } else {
        await updateEvidences([...chosen], { definition_of_done: true, script: script.trim() || null });
        // the server judges a new definition in the background within a second or two (0201)
        window.setTimeout(onChanged, JUDGED_AFTER_MS);
      }
      onChanged();
      onClose();
    });

  const automaticPick = mode === 'automatic' && step === 0;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Add Definition of Done"
      size="medium"
      footer={
        <>
          {mode === 'automatic' && step === 1 && <Button onClick={() => setStep(0)}>Back</Button>}
          {automaticPick ? (
            <Button variant="primary" disabled={chosen.size === 0} onClick={() => setStep(1)}>
              Next
            </Button>
          ) : (
            <Button
              variant="primary"
              disabled={busy || (mode === 'manual' && !comment.trim())}
              onClick={() => void add()}
            >
              {busy && <Spinner size={14} />}
              Add
            </Button>
          )}
        </>
      }
    >
      <div role="radiogroup" aria-label="Kind" className="mb-4 grid grid-cols-2 gap-2">
        {(['automatic', 'manual'] as const).map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            onClick={() => {
              setMode(m);
              setStep(0);
            }}
            className={cn(
              'rounded-md border px-3 py-2 text-left text-sm',
              mode === m ? 'border-blue-600 bg-blue-50' : 'border-gray-200 hover:bg-gray-50',
            )}
          >
            <span className="block font-medium text-gray-900">{m === 'automatic' ? 'Automatic' : 'Manual'}</span>
            <span className="text-xs text-gray-500">
              {m === 'automatic' ? 'Done when the evidence recovers' : 'Done when someone marks it resolved'}
            </span>
          </button>
        ))}
      </div>

      {mode === 'manual' ? (
        <label className="block space-y-1 text-sm font-medium text-gray-700">
          <span>Comment</span>
          <textarea
            autoFocus
            rows={3}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            className={inputClass()}
            placeholder="e.g. Customer confirms checkout works"
          />
        </label>
      ) : step === 0 ? (
        !hypotheses ? (
          <p className="text-sm text-gray-500">{DOD_MESSAGES.loading}</p>
        ) : groups.length === 0 ? (
          <p className="text-sm text-gray-500">{DOD_MESSAGES.noneLeft}</p>
        ) : (
          <div className="max-h-80 space-y-3 overflow-auto">
            {groups.map(([type, list]) => (
              <fieldset key={type}>
                <legend className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">
                  {EVIDENCE_TYPE_LABELS[type]}
                </legend>
                {list.map((e) => (
                  <label
                    key={e.id}
                    className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50"
                  >
                    <input
                      type="checkbox"
                      checked={chosen.has(e.id)}
                      onChange={() =>
                        setChosen((prev) => {
                          const next = new Set(prev);
                          if (next.has(e.id)) next.delete(e.id);
                          else next.add(e.id);
                          return next;
                        })
                      }
                    />
                    <EvidenceIcon type={e.type} />
                    <span className="truncate">{evidenceTitle(e)}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        )
      ) : (
        <ScriptField value={script} onChange={setScript} />
      )}
    </Modal>
  );
}

/** Update Definition of Done: change the script of one evidence. */
function UpdateDefinitionOfDoneDialog({
  evidence,
  onClose,
  onChanged,
}: {
  evidence: Evidence;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [script, setScript] = useState(evidence.script ?? '');
  const [busy, run] = useBusy(EVIDENCE_MESSAGES.addFailed);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Update Definition of Done"
      description={evidenceTitle(evidence)}
      size="medium"
      footer={
        <Button
          variant="primary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await updateEvidences([evidence.id], { script: script.trim() || null });
              window.setTimeout(onChanged, JUDGED_AFTER_MS);
              onChanged();
              onClose();
            })
          }
        >
          {busy && <Spinner size={14} />}
          Update
        </Button>
      }
    >
      <ScriptField value={script} onChange={setScript} />
    </Modal>
  );
}

/** The Definition of done section: what must hold before the incident is over, and whether it does. */
export function DefinitionOfDoneSection({
  hypotheses,
  canWrite,
  onChanged,
}: {
  hypotheses: Hypothesis[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Evidence | null>(null);
  const [removing, setRemoving] = useState<Evidence | null>(null);
  const items = allEvidences(hypotheses).filter((e) => e.definition_of_done);
  const done = items.filter((e) => e.done).length;

  const toggleDone = async (e: Evidence) => {
    try {
      await updateEvidences([e.id], { done: !e.done });
      onChanged();
    } catch (err) {
      toastFailure(EVIDENCE_MESSAGES.addFailed, err);
    }
  };

  return (
    <div className="space-y-2">
      {items.length > 0 && (
        <div className="flex items-center gap-2 text-xs text-gray-500">
          <div
            className="h-1.5 flex-1 overflow-hidden rounded-full bg-gray-100"
            role="progressbar"
            aria-label="Definition of done"
            aria-valuemin={0}
            aria-valuemax={items.length}
            aria-valuenow={done}
          >
            <div className="h-full bg-green-500" style={{ width: `${(done / items.length) * 100}%` }} />
          </div>
          {done} of {items.length} done
        </div>
      )}
      {items.length === 0 ? (
        <p className="text-sm text-gray-500">Nothing is part of the definition of done yet.</p>
      ) : (
        <ul className="space-y-1" aria-label="Definition of done">
          {items.map((e) => (
            <li
              key={e.id}
              className="group flex items-start gap-2 rounded px-1 py-1 text-sm"
              data-dod-id={e.id}
              data-done={e.done}
            >
              {e.done ? (
                <CheckCircle2 size={16} className="mt-0.5 shrink-0 text-green-600" aria-label="done" />
              ) : (
                <Circle size={16} className="mt-0.5 shrink-0 text-gray-300" aria-label="not done" />
              )}
              <div className="min-w-0 flex-1">
                <p className="break-words text-gray-900">{evidenceTitle(e)}</p>
                {e.type === 'comment' ? (
                  canWrite && (
                    <button
                      type="button"
                      onClick={() => void toggleDone(e)}
                      className="text-xs text-blue-700 hover:underline"
                    >
                      {e.done ? DOD_MESSAGES.notResolved : DOD_MESSAGES.resolved}
                    </button>
                  )
                ) : (
                  <p className="truncate font-mono text-[11px] text-gray-500" title={e.script ?? undefined}>
                    {e.script ?? `automatic (${EVIDENCE_TYPE_LABELS[e.type].toLowerCase()})`}
                  </p>
                )}
              </div>
              {canWrite && (
                <span className="flex shrink-0 opacity-60 group-hover:opacity-100">
                  {e.type !== 'comment' && (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="h-6 w-6"
                      aria-label={`Edit the script of ${evidenceTitle(e)}`}
                      onClick={() => setEditing(e)}
                    >
                      <Pencil size={12} aria-hidden />
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    size="icon"
                    className="h-6 w-6"
                    aria-label={`Remove ${evidenceTitle(e)} from definition of done`}
                    onClick={() => setRemoving(e)}
                  >
                    <X size={13} aria-hidden />
                  </Button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus size={14} aria-hidden /> Add Definition of Done
        </Button>
      )}
      {adding && (
        <AddDefinitionOfDoneDialog hypotheses={hypotheses} onClose={() => setAdding(false)} onChanged={onChanged} />
      )}
      {editing && (
        <UpdateDefinitionOfDoneDialog evidence={editing} onClose={() => setEditing(null)} onChanged={onChanged} />
      )}
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={EVIDENCE_MESSAGES.removeTitle}
        message={EVIDENCE_MESSAGES.removeMessage}
        confirmLabel="Remove"
        onConfirm={async () => {
          try {
            await updateEvidences([removing!.id], { definition_of_done: false });
          } catch (err) {
            toastFailure(EVIDENCE_MESSAGES.removeFailed, err);
            throw err;
          }
          onChanged();
        }}
      />
    </div>
  );
}
