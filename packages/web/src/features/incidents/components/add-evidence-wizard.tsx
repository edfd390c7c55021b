import { useState } from 'react';
import { Check } from 'lucide-react';
import type { EvidenceType } from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { errorMessage } from '#web/lib/http.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { useBusy } from '#web/lib/use-busy.ts';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { useResourceSearch, type EvidenceResourceType, type ResourceHit } from '../api/use-resource-search.ts';
import { createEvidence, type NewEvidence } from '../api/create-evidence.ts';
import type { Hypothesis } from '../api/types.ts';
import { NO_TITLE } from '../lib/display.ts';
import { COMPONENTS_FAILED } from '../lib/messages.ts';
import { EVIDENCE_TYPE_LABELS } from '../lib/evidence.ts';
import { EvidenceIcon, HealthDot } from './evidence-icon.tsx';

/** Resource search debounce (seed 000 section 5). */
const RESOURCE_SEARCH_MS = 300;
const STEPS = ['Type', 'Resource', 'Details'] as const;
const CHOICES: EvidenceType[] = ['check', 'topology', 'config', 'config_change', 'config_analysis', 'comment'];
const COLUMN: Record<EvidenceResourceType, keyof NewEvidence> = {
  check: 'check_id',
  topology: 'component_id',
  config: 'config_id',
  config_change: 'config_change_id',
  config_analysis: 'config_analysis_id',
};

/**
 * The Add Evidence wizard (seed 001 section 2, three steps): what kind of evidence, which resource
 * (or the note itself), then the hypothesis it supports and a description.
 */
export function AddEvidenceWizard({
  incidentId,
  hypotheses,
  hypothesisId,
  onClose,
  onAdded,
}: {
  incidentId: string;
  hypotheses: Hypothesis[];
  hypothesisId?: string;
  onClose: () => void;
  onAdded: () => void;
}) {
  const me = useWhoami().user.id;
  const [step, setStep] = useState(0);
  const [type, setType] = useState<EvidenceType | null>(null);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<ResourceHit | null>(null);
  const [note, setNote] = useState('');
  const [hypothesis, setHypothesis] = useState(hypothesisId ?? hypotheses[0]?.id ?? '');
  const [description, setDescription] = useState('');
  const [busy, run] = useBusy();
  const resourceType = type && type !== 'comment' ? (type as EvidenceResourceType) : undefined;
  const hits = useResourceSearch(step === 1 ? resourceType : undefined, useDebouncedValue(query, RESOURCE_SEARCH_MS));

  const canNext = step === 0 ? !!type : step === 1 ? (type === 'comment' ? !!note.trim() : !!picked) : !!hypothesis;
  const add = async () => {
    if (!type) return;
    await run(async () => {
      const row: NewEvidence = {
        hypothesis_id: hypothesis,
        type,
        description: description.trim() || null,
        created_by: me,
      };
      if (type === 'comment') row.evidence = { comment: note.trim() };
      else if (resourceType && picked) Object.assign(row, { [COLUMN[resourceType]]: picked.id });
      await createEvidence(row);
      onAdded();
      onClose();
    });
  };

  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Add Evidence"
      size="medium"
      footer={
        <>
          {step > 0 && <Button onClick={() => setStep((s) => s - 1)}>Back</Button>}
          {step < 2 ? (
            <Button variant="primary" disabled={!canNext} onClick={() => setStep((s) => s + 1)}>
              Next
            </Button>
          ) : (
            <Button variant="primary" disabled={!canNext || busy} onClick={() => void add()}>
              {busy && <Spinner size={14} />}
              Add
            </Button>
          )}
        </>
      }
    >
      <ol className="mb-4 flex items-center gap-2 text-xs" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li
            key={s}
            aria-current={i === step ? 'step' : undefined}
            className={cn(
              'flex items-center gap-1.5',
              i === step ? 'font-semibold text-blue-700' : i < step ? 'text-green-700' : 'text-gray-400',
            )}
          >
            <span
              className={cn(
                'inline-flex h-5 w-5 items-center justify-center rounded-full border',
                i === step ? 'border-blue-600' : i < step ? 'border-green-600' : 'border-gray-300',
              )}
            >
              {i < step ? <Check size={11} aria-hidden /> : i + 1}
            </span>
            {s}
            {i < STEPS.length - 1 && <span className="mx-1 h-px w-6 bg-gray-300" />}
          </li>
        ))}
      </ol>

      {step === 0 && (
        <div role="radiogroup" aria-label="Evidence type" className="grid grid-cols-3 gap-2">
          {CHOICES.map((t) => (
            <button
              key={t}
              type="button"
              role="radio"
              aria-checked={type === t}
              onClick={() => {
                setType(t);
                setPicked(null);
              }}
              className={cn(
                'flex items-center gap-2 rounded-md border px-3 py-2.5 text-sm',
                type === t ? 'border-blue-600 bg-blue-50 text-blue-800' : 'border-gray-200 hover:bg-gray-50',
              )}
            >
              <EvidenceIcon type={t} />
              {EVIDENCE_TYPE_LABELS[t]}
            </button>
          ))}
        </div>
      )}

      {step === 1 &&
        (type === 'comment' ? (
          <label className="block space-y-1 text-sm font-medium text-gray-700">
            <span>Note</span>
            <textarea
              autoFocus
              rows={4}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              className={inputClass()}
            />
          </label>
        ) : (
          <div className="space-y-2">
            <input
              autoFocus
              type="search"
              aria-label="Search resources"
              placeholder={`Search ${EVIDENCE_TYPE_LABELS[type!].toLowerCase()}s by name`}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className={inputClass()}
            />
            <ul
              role="listbox"
              aria-label="Resources"
              className="max-h-72 divide-y divide-gray-100 overflow-auto rounded-md border border-gray-200"
            >
              {hits.isLoading && <li className="p-3 text-sm text-gray-500">Loading...</li>}
              {hits.error && (
                <li role="alert" className="p-3 text-sm text-red-600">
                  {type === 'topology' ? COMPONENTS_FAILED : errorMessage(hits.error)}
                </li>
              )}
              {hits.data?.length === 0 && <li className="p-3 text-sm text-gray-500">No options found</li>}
              {hits.data?.map((r) => (
                <li
                  key={r.id}
                  role="option"
                  aria-selected={picked?.id === r.id}
                  tabIndex={0}
                  onClick={() => setPicked(r)}
                  onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setPicked(r)}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 px-3 py-2 text-sm',
                    picked?.id === r.id ? 'bg-blue-50' : 'hover:bg-gray-50',
                  )}
                >
                  <HealthDot health={r.health} />
                  <span className="min-w-0 flex-1 truncate text-gray-900">{r.name}</span>
                  {r.detail && <span className="shrink-0 text-xs text-gray-400">{r.detail}</span>}
                </li>
              ))}
            </ul>
          </div>
        ))}

      {step === 2 && (
        <div className="space-y-3">
          <label className="block space-y-1 text-sm font-medium text-gray-700">
            <span>Hypothesis</span>
            <select value={hypothesis} onChange={(e) => setHypothesis(e.target.value)} className={inputClass()}>
              {hypotheses.map((h) => (
                <option key={h.id} value={h.id}>
                  {h.title || NO_TITLE}
                </option>
              ))}
            </select>
          </label>
          <label className="block space-y-1 text-sm font-medium text-gray-700">
            <span>Description</span>
            <textarea
              rows={3}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              className={inputClass()}
              placeholder={picked?.name}
            />
          </label>
        </div>
      )}
      <span className="sr-only" aria-live="polite">
        Step {step + 1} of 3 for incident {incidentId}
      </span>
    </Modal>
  );
}
