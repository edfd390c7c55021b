import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Play } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { FormField } from '#web/components/forms/index.ts';
import { toastError } from '#web/lib/toast.ts';
import { usePlaybookParams, useRunPlaybook, type ResourceOption } from './api.ts';
import { ParameterField } from './parameter-field.tsx';
import { ResourcePicker } from './resource-picker.tsx';
import type { PlaybookParam, PlaybookResource, PlaybookSummary } from './types.ts';
import { initialValues, validateParams } from './validation.ts';

const NO_PARAMETERS_MESSAGE = 'No parameters for this playbook.';
const SELECT_RESOURCE_MESSAGE = 'Please select a resource to see the parameters.';

const ID_FIELD = { check: 'check_id', config: 'config_id', component: 'component_id' } as const;

/** The resource kinds a spec offers itself on, with the labels of seed 000 ("Playbook run dialog"). */
function selectorsOf(spec: PlaybookSummary['spec']) {
  const s: { checks?: unknown[]; configs?: unknown[]; components?: unknown[] } = {};
  if (spec?.configs?.length) s.configs = spec.configs;
  if (spec?.components?.length) s.components = spec.components;
  if (spec?.checks?.length) s.checks = spec.checks;
  return s;
}

function resourceLabel(s: ReturnType<typeof selectorsOf>): string {
  const labels = [s.configs && 'Catalog Item', s.components && 'Component', s.checks && 'Check'].filter(Boolean);
  return labels.length === 1 ? labels[0]! : 'Resource';
}

/** The parameter form of one resource: values, touched fields, the Run button. */
function ParamsForm({
  playbook,
  resource,
  onRan,
}: {
  playbook: PlaybookSummary;
  resource: PlaybookResource;
  onRan: (runId: string) => void;
}) {
  const params = usePlaybookParams(playbook.id, resource);
  const list: PlaybookParam[] = useMemo(() => params.data?.params ?? [], [params.data]);
  // the resolved defaults arrive once; the key below remounts the fields for a new resource
  const defaults = useMemo(() => initialValues(list), [list]);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const run = useRunPlaybook();
  const values = { ...defaults, ...edits };
  const errors = validateParams(list, values);
  const invalid = Object.keys(errors).length > 0;

  const submit = async () => {
    setSubmitted(true);
    if (invalid || !playbook.id) return;
    try {
      const res = await run.mutateAsync({ id: playbook.id, ...resource, params: values });
      onRan(res.run_id);
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <form
      className="flex flex-col gap-4"
      aria-busy={params.isFetching || undefined}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold text-gray-900">Playbook Parameters</legend>
        {params.isPending ? (
          <Spinner size={16} />
        ) : params.error ? (
          <p className="text-sm text-red-600" role="alert">
            {(params.error as Error).message}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-gray-500">{NO_PARAMETERS_MESSAGE}</p>
        ) : (
          list.map((p) => (
            <ParameterField
              key={p.name}
              param={p}
              value={values[p.name] ?? ''}
              onChange={(v) => {
                setEdits((e) => ({ ...e, [p.name]: v }));
                setTouched((t) => ({ ...t, [p.name]: true }));
              }}
              onBlur={() => setTouched((t) => ({ ...t, [p.name]: true }))}
              error={touched[p.name] || submitted ? errors[p.name] : undefined}
            />
          ))
        )}
      </fieldset>
      <div className="flex justify-end border-t border-gray-200 pt-3">
        <Button
          type="submit"
          variant="primary"
          disabled={!playbook.id || invalid || run.isPending || params.isPending || !!params.error}
        >
          {run.isPending ? <Spinner size={14} className="text-white" /> : <Play size={14} aria-hidden />}
          {run.isPending ? 'Running...' : 'Run'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The playbook run dialog of seed 000: a Resource selector (Catalog Item, Component or Check, as
 * the spec's selectors say) unless the dialog was opened on a resource, then the Playbook
 * Parameters and Run ('Running...' while busy). A run opens its page; a failure is a toast.
 */
export function RunPlaybookDialog({
  playbook,
  resource,
  open,
  onOpenChange,
}: {
  playbook: PlaybookSummary;
  /** The resource the dialog was opened on; without one the user picks it. */
  resource?: PlaybookResource;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const selectors = selectorsOf(playbook.spec);
  const [picked, setPicked] = useState<{ key: string; option?: ResourceOption }>({ key: '' });
  const chosen: PlaybookResource | undefined =
    resource ?? (picked.option ? { [ID_FIELD[picked.option.kind]]: picked.option.id } : undefined);
  const label = resourceLabel(selectors);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={playbook.title || playbook.name}
      description={playbook.description || undefined}
      size="medium"
    >
      <div className="flex flex-col gap-4">
        {!resource && (
          <FormField label={label} htmlFor="playbook-resource" required>
            <ResourcePicker
              id="playbook-resource"
              label={label}
              scope={{ playbook_id: playbook.id }}
              value={picked.key}
              onChange={(key, option) => setPicked({ key, option })}
            />
          </FormField>
        )}
        {chosen ? (
          <ParamsForm
            key={JSON.stringify(chosen)}
            playbook={playbook}
            resource={chosen}
            onRan={(runId) => {
              onOpenChange(false);
              void navigate(`/playbooks/runs/${runId}`);
            }}
          />
        ) : (
          <p className="text-sm text-gray-500">{SELECT_RESOURCE_MESSAGE}</p>
        )}
      </div>
    </Modal>
  );
}
