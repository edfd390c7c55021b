import { useState } from 'react';
import { ArrowLeft, type LucideIcon } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { useSession } from '#web/lib/session.tsx';
import { DIRECT_OPTIONS, GITOPS_OPTIONS, type DirectOption, type GitOpsOption } from '../gitops/options.ts';
import type { RenderIntegrationForm } from '../types.ts';
import { GitOpsForm } from './gitops-form.tsx';

type Step = { kind: 'choose' } | { kind: 'gitops'; option: GitOpsOption } | { kind: 'direct'; option: DirectOption };

function OptionGroup<T extends { name: string; icon: LucideIcon }>({
  title,
  options,
  onChoose,
}: {
  title: string;
  options: readonly T[];
  onChoose: (o: T) => void;
}) {
  return (
    <section aria-label={title} className="space-y-2">
      <h3 className="text-sm font-semibold text-gray-900">{title}</h3>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {options.map((o) => (
          <li key={o.name}>
            <button
              type="button"
              onClick={() => onChoose(o)}
              className="flex h-20 w-full flex-col items-center justify-center gap-2 rounded-md border border-gray-300 bg-white text-sm text-gray-800 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <o.icon size={20} aria-hidden className="text-gray-500" />
              {o.name}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The full-size add dialog (seed 002 section 2.9): 'Add via GitOps' (generated Flux manifests and
 * Helm command) and 'Add Directly' (the topology, scraper or log backend spec form).
 */
export function AddIntegrationModal({
  open,
  onOpenChange,
  renderForm,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  renderForm: RenderIntegrationForm;
  onAdded: () => void;
}) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const { isFeatureEnabled } = useSession();
  const direct = DIRECT_OPTIONS.filter((o) => !o.feature || isFeatureEnabled(o.feature));
  const close = () => {
    setStep({ kind: 'choose' });
    onOpenChange(false);
  };
  const back = () => setStep({ kind: 'choose' });
  const title = step.kind === 'choose' ? 'Add Integration' : `Add ${step.option.name}`;

  return (
    <Modal
      open={open}
      onOpenChange={(o) => (o ? onOpenChange(true) : close())}
      title={title}
      size="full"
      dismissOnOutsideClick={false}
    >
      <div className="flex h-full min-h-0 flex-col">
        {step.kind === 'choose' && (
          <div className="space-y-6">
            <OptionGroup
              title="Add via GitOps"
              options={GITOPS_OPTIONS}
              onChoose={(option) => setStep({ kind: 'gitops', option })}
            />
            <OptionGroup
              title="Add Directly"
              options={direct}
              onChoose={(option) => setStep({ kind: 'direct', option })}
            />
          </div>
        )}
        {step.kind === 'gitops' && <GitOpsForm option={step.option} onBack={back} onClose={close} />}
        {step.kind === 'direct' && (
          <div className="flex min-h-0 flex-1 flex-col gap-3">
            <div>
              <Button size="sm" onClick={back}>
                <ArrowLeft size={14} aria-hidden /> Back
              </Button>
            </div>
            {renderForm({
              table: step.option.table,
              row: null,
              onSaved: () => {
                onAdded();
                close();
              },
              onDeleted: close,
            })}
          </div>
        )}
      </div>
    </Modal>
  );
}
