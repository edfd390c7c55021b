import { useState } from 'react';
import { CheckCircle2, RotateCcw } from 'lucide-react';
import {
  allowedStatusMoves,
  statusToggleTarget,
  STATUSES_ASKING_FOR_FACTORS,
  type IncidentStatus,
} from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { toastFailure, toastSuccess } from '#web/lib/toast.ts';
import { updateIncidentStatus } from '../api/update-incident-status.ts';
import type { Evidence } from '../api/types.ts';
import { STATUS_LABELS } from '../lib/display.ts';
import { EVIDENCE_TYPE_LABELS, evidenceTitle } from '../lib/evidence.ts';
import { EvidenceIcon } from './evidence-icon.tsx';

/** seed 001 section 8 */
const STATUS_MESSAGES = {
  updated: 'Incident status updated successfully',
  failed: 'Incident status updated failed',
  noEvidence: 'Please select atleast one evidence',
  noEvidences: 'There are no evidences provided for this incident',
  factorsTitle: 'Add contributing factors to definition of done',
} as const;

async function save(incidentId: string, status: IncidentStatus, factors: string[], onSaved: () => void) {
  try {
    await updateIncidentStatus(incidentId, status, factors);
    toastSuccess(STATUS_MESSAGES.updated);
    onSaved();
    return true;
  } catch (err) {
    // the seed's words first, the server's reason (e.g. a refused move) under them
    toastFailure(STATUS_MESSAGES.failed, err);
    return false;
  }
}

/**
 * The status dropdown of seed 001 section 4: it offers the moves of the status table; mitigated
 * and resolved first ask for contributing factors (Cancel aborts, Skip saves without marking,
 * Submit marks the chosen evidences as the definition of done and then saves).
 */
export function StatusDropdown({
  incidentId,
  status,
  evidences,
  disabled,
  onSaved,
}: {
  incidentId: string;
  status: IncidentStatus;
  evidences: Evidence[];
  disabled?: boolean;
  onSaved: () => void;
}) {
  const [asking, setAsking] = useState<IncidentStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const moves = allowedStatusMoves(status);

  const choose = async (next: IncidentStatus) => {
    if (next === status) return;
    if (STATUSES_ASKING_FOR_FACTORS.includes(next)) {
      setAsking(next);
      return;
    }
    setBusy(true);
    await save(incidentId, next, [], onSaved);
    setBusy(false);
  };

  return (
    <>
      <label className="flex items-center gap-2 text-sm text-gray-600">
        <span className="sr-only">Status</span>
        {busy && <Spinner size={14} />}
        <select
          aria-label="Status"
          value={status}
          disabled={disabled || busy}
          onChange={(e) => void choose(e.target.value as IncidentStatus)}
          className={`${inputClass()} w-40 py-1`}
        >
          {!moves.includes(status) && <option value={status}>{STATUS_LABELS[status]}</option>}
          {moves.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {asking && (
        <ContributingFactorsDialog
          evidences={evidences}
          onCancel={() => setAsking(null)}
          onSave={async (factors) => {
            if (await save(incidentId, asking, factors, onSaved)) setAsking(null);
          }}
        />
      )}
    </>
  );
}

function ContributingFactorsDialog({
  evidences,
  onCancel,
  onSave,
}: {
  evidences: Evidence[];
  onCancel: () => void;
  onSave: (factors: string[]) => Promise<void>;
}) {
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'skip' | 'submit' | null>(null);
  const run = async (kind: 'skip' | 'submit') => {
    if (kind === 'submit' && chosen.size === 0) {
      setError(STATUS_MESSAGES.noEvidence);
      return;
    }
    setBusy(kind);
    await onSave(kind === 'submit' ? [...chosen] : []);
    setBusy(null);
  };
  const toggle = (id: string) => {
    setError(null);
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onCancel()}
      title={STATUS_MESSAGES.factorsTitle}
      size="medium"
      footer={
        <>
          <Button onClick={onCancel}>Cancel</Button>
          <Button onClick={() => void run('skip')} disabled={!!busy}>
            {busy === 'skip' && <Spinner size={14} />}
            Skip
          </Button>
          <Button variant="primary" onClick={() => void run('submit')} disabled={!!busy || evidences.length === 0}>
            {busy === 'submit' && <Spinner size={14} />}
            Submit
          </Button>
        </>
      }
    >
      {evidences.length === 0 ? (
        <p className="text-sm text-gray-500">{STATUS_MESSAGES.noEvidences}</p>
      ) : (
        <fieldset className="space-y-1">
          <legend className="mb-2 text-sm text-gray-600">Which evidence shows the incident is dealt with?</legend>
          {evidences.map((e) => (
            <label
              key={e.id}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-gray-50"
            >
              <input
                type="checkbox"
                checked={chosen.has(e.id)}
                onChange={() => toggle(e.id)}
                className="rounded border-gray-300"
              />
              <EvidenceIcon type={e.type} />
              <span className="min-w-0 flex-1 truncate text-gray-800">{evidenceTitle(e)}</span>
              <span className="text-xs text-gray-400">{EVIDENCE_TYPE_LABELS[e.type]}</span>
              {e.definition_of_done && <span className="text-xs text-green-700">in definition of done</span>}
            </label>
          ))}
        </fieldset>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {error}
        </p>
      )}
    </Modal>
  );
}

/**
 * The header toggle (seed 001 section 2): closes an open incident and reopens any other status
 * (new, investigating and mitigated too, not only resolved and closed).
 */
export function CloseReopenToggle({
  incidentId,
  status,
  disabled,
  onSaved,
}: {
  incidentId: string;
  status: IncidentStatus;
  disabled?: boolean;
  onSaved: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const target = statusToggleTarget(status);
  return (
    <Button
      size="sm"
      disabled={disabled || busy}
      onClick={async () => {
        setBusy(true);
        await save(incidentId, target, [], onSaved);
        setBusy(false);
      }}
    >
      {busy ? (
        <Spinner size={14} />
      ) : target === 'closed' ? (
        <CheckCircle2 size={14} aria-hidden />
      ) : (
        <RotateCcw size={14} aria-hidden />
      )}
      {target === 'closed' ? 'Close Incident' : 'Reopen Incident'}
    </Button>
  );
}
