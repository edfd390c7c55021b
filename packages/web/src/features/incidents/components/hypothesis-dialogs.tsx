import { useState } from 'react';
import { HYPOTHESIS_TYPES, type HypothesisType } from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError } from '#web/lib/toast.ts';
import { useBusy } from '#web/lib/use-busy.ts';
import { createHypothesis } from '../api/create-hypothesis.ts';
import { deleteHypotheses } from '../api/delete-hypotheses.ts';
import { updateHypothesis } from '../api/update-hypothesis.ts';
import type { Hypothesis } from '../api/types.ts';
import { HYPOTHESIS_TYPE_LABELS, NO_TITLE } from '../lib/display.ts';

/** Create hypothesis (seed 001: no required check; a new one starts possible). */
export function CreateHypothesisModal({
  incidentId,
  parent,
  type,
  onClose,
  onCreated,
}: {
  incidentId: string;
  parent: Hypothesis | null;
  type: HypothesisType;
  onClose: () => void;
  onCreated: () => void;
}) {
  const me = useWhoami().user.id;
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<HypothesisType>(type);
  const [busy, run] = useBusy();
  const submit = () =>
    run(async () => {
      await createHypothesis({
        incident_id: incidentId,
        parent_id: parent?.id ?? null,
        title: title.trim(),
        type: kind,
        created_by: me,
      });
      onCreated();
      onClose();
    });
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Create hypothesis"
      description={parent ? `Under: ${parent.title || NO_TITLE}` : undefined}
      size="small"
      footer={
        <Button variant="primary" type="submit" form="create-hypothesis" disabled={busy}>
          {busy && <Spinner size={14} />}
          Create
        </Button>
      }
    >
      <form
        id="create-hypothesis"
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="block space-y-1 text-sm font-medium text-gray-700">
          <span>Title</span>
          <input
            autoFocus
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            className={inputClass()}
            placeholder="What might explain it?"
          />
        </label>
        <label className="block space-y-1 text-sm font-medium text-gray-700">
          <span>Type</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as HypothesisType)} className={inputClass()}>
            {HYPOTHESIS_TYPES.map((t) => (
              <option key={t} value={t}>
                {HYPOTHESIS_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
      </form>
    </Modal>
  );
}

/** Deleting offers a choice (seed 001 section 4): disprove it, or delete it with its evidence and comments. */
export function DeleteHypothesisDialog({
  hypothesis,
  onClose,
  onChanged,
}: {
  hypothesis: Hypothesis;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState<'disprove' | 'delete' | null>(null);
  const act = async (kind: 'disprove' | 'delete') => {
    setBusy(kind);
    try {
      if (kind === 'disprove') await updateHypothesis(hypothesis.id, { status: 'disproven' });
      else await deleteHypotheses([hypothesis.id]);
      onChanged();
      onClose();
    } catch (err) {
      // seed 001 section 8: a failed hypothesis deletion is only logged
      console.error('Deleting the hypothesis failed', err);
      if (kind === 'disprove') toastError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Delete hypothesis"
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={() => void act('disprove')} disabled={!!busy}>
            {busy === 'disprove' && <Spinner size={14} />}
            Disprove
          </Button>
          <Button variant="danger" onClick={() => void act('delete')} disabled={!!busy}>
            {busy === 'delete' && <Spinner size={14} />}
            Delete
          </Button>
        </>
      }
    >
      <p className="text-sm text-gray-700">
        <strong>{hypothesis.title || NO_TITLE}</strong> can be marked as disproven and kept for the record, or deleted
        together with its sub-hypotheses, evidence and comments.
      </p>
    </Modal>
  );
}
