import { useMemo, useState } from 'react';
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import dayjs from 'dayjs';
import { Lock, Trash2 } from 'lucide-react';
import { z } from 'zod';
import { FIELD_REQUIRED_MESSAGE, FormField, TextAreaField, inputClass } from '#web/components/forms/index.ts';
import {
  FUTURE_PRESETS,
  TimeRangePicker,
  absoluteRange,
  resolveTimeRange,
  type TimeRange,
} from '#web/components/time-range/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { useCan } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useCreateSilence, type SilencePayload } from '../api/create-silence.ts';
import { useDeleteSilence } from '../api/delete-silence.ts';
import { useUpdateSilence } from '../api/update-silence.ts';
import type { SilenceRow } from '../api/types.ts';
import { SILENCE_KINDS, isUiSource, type SilenceKind } from '../lib/constants.ts';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';
import { ResourcePicker, type PickedResource } from './resource-picker.tsx';

const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';
/** A new silence starts now and lasts an hour (the first "Next" range of seed 000 section 9 that fits a fix). */
const DEFAULT_RANGE = FUTURE_PRESETS.find((r) => r.to === 'now+1h')!;

const valuesSchema = z.object({
  kind: z.enum(['config', 'component', 'check', 'canary']),
  resource: z.object({ id: z.string(), name: z.string() }).nullable(),
  recursive: z.boolean(),
  from: z.string(),
  until: z.string(),
  description: z.string(),
});
type SilenceValues = z.infer<typeof valuesSchema>;

function schemaFor(isNew: boolean) {
  return valuesSchema.superRefine((v, ctx) => {
    // seed 002 section 5: the silence form requires a resource
    if (!v.resource) ctx.addIssue({ code: 'custom', path: ['resource'], message: FIELD_REQUIRED_MESSAGE });
    if (!v.from) ctx.addIssue({ code: 'custom', path: ['from'], message: FIELD_REQUIRED_MESSAGE });
    if (!v.until) ctx.addIssue({ code: 'custom', path: ['until'], message: FIELD_REQUIRED_MESSAGE });
    if (v.from && v.until && !dayjs(v.until).isAfter(dayjs(v.from)))
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'Until must be after From' });
    else if (isNew && v.until && !dayjs(v.until).isAfter(dayjs()))
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'Until must be in the future' });
  });
}

/** What a row (or the add page's query parameters) says about the resource a silence names. */
export interface SilenceTarget {
  kind: SilenceKind;
  resource: PickedResource | null;
}

export function targetOf(row: SilenceRow): SilenceTarget {
  for (const k of SILENCE_KINDS) {
    const id = row[k.column];
    if (id) {
      const ref = row[k.kind];
      return { kind: k.kind, resource: { id, name: ref?.name ?? id } };
    }
  }
  return { kind: 'check', resource: null };
}

function initialValues(row: SilenceRow | null, target: SilenceTarget | undefined): SilenceValues {
  const t = row ? targetOf(row) : (target ?? { kind: 'check' as const, resource: null });
  const range = row ? undefined : resolveTimeRange(DEFAULT_RANGE);
  return {
    kind: t.kind,
    resource: t.resource,
    recursive: row?.recursive ?? false,
    from: dayjs(row?.from ?? range?.from).format(INPUT_FORMAT),
    until: dayjs(row?.until ?? range?.to).format(INPUT_FORMAT),
    description: row?.description ?? '',
  };
}

function toPayload(v: SilenceValues): SilencePayload {
  const ids = Object.fromEntries(
    SILENCE_KINDS.map((k) => [k.column, k.kind === v.kind ? (v.resource?.id ?? null) : null]),
  ) as Pick<SilencePayload, 'canary_id' | 'check_id' | 'component_id' | 'config_id'>;
  return {
    ...ids,
    description: v.description.trim() || null,
    from: dayjs(v.from).toISOString(),
    until: dayjs(v.until).toISOString(),
    recursive: v.recursive,
  };
}

export interface SilenceFormProps {
  /** the silence to edit; null adds one */
  row: SilenceRow | null;
  /** a resource to start with (the add page's ?check_id= ... parameters) */
  target?: SilenceTarget;
  onDone: () => void;
  onCancel: () => void;
}

/**
 * Add or edit a silence (seed 002 sections 3-5 and 9): the resource kind (choosing one clears the
 * other resource ids), the resource, recursive (children of a component or config), the duration
 * from future time ranges or typed From / Until, and the Reason. Saved only by those who may
 * write notifications, and only for silences made in the console (source UI).
 */
export function SilenceForm({ row, target, onDone, onCancel }: SilenceFormProps) {
  const canWrite = useCan('notifications', 'write');
  const uiSource = isUiSource(row?.source);
  const readOnly = !canWrite || !uiSource;
  const schema = useMemo(() => schemaFor(!row), [row]);
  const form = useForm<SilenceValues>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: initialValues(row, target),
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const [range, setRange] = useState<TimeRange | undefined>(() =>
    row ? absoluteRange(row.from, row.until) : DEFAULT_RANGE,
  );
  const create = useCreateSilence();
  const update = useUpdateSilence();
  const remove = useDeleteSilence();
  const [confirming, setConfirming] = useState(false);
  const busy = create.isPending || update.isPending;
  const recursiveApplies = kind === 'component' || kind === 'config';

  const chooseKind = (next: SilenceKind) => {
    // seed 002 section 4: choosing a resource kind clears the other resource ids
    form.setValue('kind', next);
    form.setValue('resource', null);
    if (next !== 'component' && next !== 'config') form.setValue('recursive', false);
  };

  const chooseRange = (r: TimeRange) => {
    setRange(r);
    const resolved = resolveTimeRange(r);
    if (!resolved) return;
    form.setValue('from', dayjs(resolved.from).format(INPUT_FORMAT), { shouldValidate: true });
    form.setValue('until', dayjs(resolved.to).format(INPUT_FORMAT), { shouldValidate: true });
  };

  const submit = form.handleSubmit(async (v) => {
    try {
      if (row) await update.mutateAsync({ id: row.id, payload: toPayload(v) });
      else await create.mutateAsync(toPayload(v));
      toastSuccess(row ? NOTIFICATION_MESSAGES.silenceUpdated : NOTIFICATION_MESSAGES.silenceCreated);
      onDone();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Notification silence" className="space-y-4">
        {!uiSource && (
          <p className="flex items-center gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <Lock size={14} aria-hidden /> This silence comes from {row?.source} and can only be changed there.
          </p>
        )}
        <fieldset disabled={readOnly} className="space-y-4">
          <div
            role="radiogroup"
            aria-label="Resource kind"
            className="inline-flex rounded-md border border-gray-300 p-0.5"
          >
            {SILENCE_KINDS.map((k) => (
              <button
                key={k.kind}
                type="button"
                role="radio"
                aria-checked={kind === k.kind}
                onClick={() => chooseKind(k.kind)}
                className={cn(
                  'rounded px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600',
                  kind === k.kind ? 'bg-gray-900 text-white' : 'text-gray-600 hover:bg-gray-100',
                )}
              >
                {k.label}
              </button>
            ))}
          </div>
          <Controller
            control={form.control}
            name="resource"
            render={({ field, fieldState }) => (
              <ResourcePicker
                key={kind}
                kind={kind}
                value={field.value}
                onChange={(v) => {
                  field.onChange(v);
                  field.onBlur();
                }}
                error={fieldState.error?.message}
                disabled={readOnly}
              />
            )}
          />
          <label className={cn('flex items-start gap-2 text-sm', recursiveApplies ? 'text-gray-800' : 'text-gray-400')}>
            <input
              type="checkbox"
              {...form.register('recursive')}
              disabled={readOnly || !recursiveApplies}
              className="mt-0.5 h-4 w-4 rounded border-gray-300"
            />
            <span>
              Recursive
              <span className="block text-xs text-gray-500">
                Also silence the children of this {kind === 'config' ? 'catalog item' : 'component'}.
              </span>
            </span>
          </label>
          <div className="space-y-2">
            <p className="text-sm font-medium text-gray-700">Duration</p>
            <TimeRangePicker value={range} onChange={chooseRange} placeholder="Choose how long" align="start" />
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {(['from', 'until'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field, fieldState }) => (
                    <FormField
                      label={name === 'from' ? 'From' : 'Until'}
                      htmlFor={`silence-${name}`}
                      required
                      error={fieldState.error?.message}
                    >
                      <input
                        id={`silence-${name}`}
                        type="datetime-local"
                        {...field}
                        onChange={(e) => {
                          field.onChange(e.target.value);
                          setRange(undefined);
                        }}
                        aria-invalid={!!fieldState.error || undefined}
                        className={inputClass(!!fieldState.error)}
                      />
                    </FormField>
                  )}
                />
              ))}
            </div>
          </div>
          <TextAreaField<SilenceValues>
            name="description"
            label="Reason"
            rows={2}
            placeholder="Why these notifications are not wanted for now"
          />
        </fieldset>
        <div className="flex items-center justify-end gap-2 border-t border-gray-200 pt-3">
          {row && canWrite && uiSource && (
            <Button variant="danger" className="mr-auto" onClick={() => setConfirming(true)}>
              <Trash2 size={14} aria-hidden /> Delete
            </Button>
          )}
          <Button onClick={onCancel}>{readOnly ? 'Close' : 'Cancel'}</Button>
          {!readOnly && (
            <Button type="submit" variant="primary" disabled={busy}>
              {busy && <Spinner size={14} className="text-white" />}
              {row ? 'Update' : 'Save'}
            </Button>
          )}
        </div>
      </form>
      {row && (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={NOTIFICATION_MESSAGES.deleteSilenceTitle}
          message={`Delete the silence of '${targetOf(row).resource?.name ?? row.id}'? Notifications about it are sent again.`}
          onConfirm={async () => {
            try {
              await remove.mutateAsync(row.id);
            } catch (err) {
              toastError(err);
              throw err;
            }
            toastSuccess(NOTIFICATION_MESSAGES.silenceDeleted);
            onDone();
          }}
        />
      )}
    </FormProvider>
  );
}
