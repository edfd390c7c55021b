import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Lock, Trash2 } from 'lucide-react';
import { TextAreaField, TextField } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useCreateFeatureFlag, type FeatureFlagInput } from '../api/use-create-feature-flag.ts';
import { useUpdateFeatureFlag } from '../api/use-update-feature-flag.ts';
import { useDeleteFeatureFlag } from '../api/use-delete-feature-flag.ts';
import type { FeatureFlag } from '../api/use-feature-flags.ts';
import { FEATURE_FLAG_MESSAGES } from '../messages.ts';

export interface FeatureFlagFormProps {
  /** the flag to edit; null for a new one */
  flag: FeatureFlag | null;
  canWrite: boolean;
  onDone: () => void;
}

/**
 * Add, update or delete one flag (seed 002 sections 2.13, 4, 5 and 8). A flag is new when it has
 * no created_at; both name and value are needed ('please provide all details'). Local flags come
 * from the server's environment: shown read-only, without Save or Delete.
 */
export function FeatureFlagForm({ flag, canWrite, onDone }: FeatureFlagFormProps) {
  const editing = !!flag?.created_at;
  const local = flag?.source === 'local';
  const readOnly = local || !canWrite;
  const form = useForm<FeatureFlagInput>({
    defaultValues: { name: flag?.name ?? '', value: flag?.value ?? '', description: flag?.description ?? '' },
  });
  const create = useCreateFeatureFlag();
  const update = useUpdateFeatureFlag();
  const remove = useDeleteFeatureFlag();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = create.isPending || update.isPending;

  const submit = form.handleSubmit(async (v) => {
    if (local) {
      setProblem(FEATURE_FLAG_MESSAGES.local);
      toastError(FEATURE_FLAG_MESSAGES.local);
      return;
    }
    const input = { name: v.name.trim(), value: v.value.trim(), description: v.description.trim() };
    if (!input.name || !input.value) {
      setProblem(FEATURE_FLAG_MESSAGES.incomplete);
      toastError(FEATURE_FLAG_MESSAGES.incomplete);
      return;
    }
    setProblem(null);
    try {
      if (editing) {
        await update.mutateAsync(input);
        toastSuccess(FEATURE_FLAG_MESSAGES.updated);
      } else {
        await create.mutateAsync(input);
        toastSuccess(FEATURE_FLAG_MESSAGES.added);
      }
      onDone();
    } catch (err) {
      setProblem(toastError(err));
    }
  });

  const doDelete = async () => {
    try {
      await remove.mutateAsync(flag!.name);
      toastSuccess(FEATURE_FLAG_MESSAGES.removed);
      onDone();
    } catch (err) {
      setProblem(toastError(err));
    }
  };

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3" aria-label="Feature flag">
        {local && (
          <p className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <Lock size={14} aria-hidden /> {FEATURE_FLAG_MESSAGES.local}: this flag is set in the server's environment
            (WATCHDECK_PROPERTIES).
          </p>
        )}
        <TextField<FeatureFlagInput>
          name="name"
          label="Name"
          disabled={readOnly || editing}
          placeholder="e.g. incidents.disable"
        />
        <TextField<FeatureFlagInput> name="value" label="Value" disabled={readOnly} placeholder="e.g. true" />
        <TextAreaField<FeatureFlagInput> name="description" label="Description" disabled={readOnly} rows={2} />
        {problem && !local && (
          <p role="alert" className="text-sm text-red-600">
            {problem}
          </p>
        )}
        <div className="flex items-center gap-2 border-t border-gray-200 pt-4">
          {editing &&
            !readOnly &&
            (confirming ? (
              <span className="flex items-center gap-2 text-sm text-gray-700">
                Remove '{flag!.name}'?
                <Button variant="danger" size="sm" onClick={() => void doDelete()} disabled={remove.isPending}>
                  Yes, remove
                </Button>
                <Button size="sm" onClick={() => setConfirming(false)}>
                  No
                </Button>
              </span>
            ) : (
              <Button variant="danger" onClick={() => setConfirming(true)}>
                <Trash2 size={14} aria-hidden /> Delete
              </Button>
            ))}
          <div className="ml-auto flex gap-2">
            <Button onClick={onDone}>{readOnly ? 'Close' : 'Cancel'}</Button>
            {!readOnly && (
              <Button type="submit" variant="primary" disabled={busy}>
                {busy && <Spinner size={14} />}
                {editing ? 'Update' : 'Save'}
              </Button>
            )}
          </div>
        </div>
      </form>
    </FormProvider>
  );
}
