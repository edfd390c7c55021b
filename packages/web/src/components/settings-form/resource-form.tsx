import { useId, useRef, useState } from 'react';
import { Controller, FormProvider, useForm, useWatch, type Path } from 'react-hook-form';
import * as Tabs from '@radix-ui/react-tabs';
import { Trash2 } from 'lucide-react';
import { CodeEditor, useJsonSchema } from '../code-editor/index.ts';
import { FIELD_REQUIRED_MESSAGE, FormField, TextField, inputClass } from '../forms/index.ts';
import { Button } from '../ui/button.tsx';
import { Modal } from '../ui/modal.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { cn } from '#web/lib/cn.ts';
import { useSettingsMutations } from './use-settings-mutations.ts';
import { SCHEDULE_OPTIONS, rowName, type SettingsResourceConfig, type SettingsRow } from './types.ts';
import {
  CODE_YAML_MESSAGE,
  LABELS_JSON_MESSAGE,
  SPEC_YAML_MESSAGE,
  codeDocument,
  formPayload,
  initialValues,
  parseLabels,
  parseYamlMapping,
  scheduleInSpec,
  toYaml,
  valuesFromCode,
  withSpecSchedule,
  type ResourceFormValues,
} from './form-model.ts';
import { createdMessage, deletedMessage, updatedMessage } from './messages.ts';

const LABELS_SCHEMA = { type: 'object', additionalProperties: { type: 'string' } };

export interface ResourceFormProps {
  config: SettingsResourceConfig;
  /** the resource being edited; null for a new one */
  row: SettingsRow | null;
  canWrite: boolean;
  onSaved: (row: SettingsRow) => void;
  onDeleted?: () => void;
}

type Tab = 'form' | 'code';

/** Which form field a server validation message is about ('spec.http[0].url is required' -> spec). */
function fieldOfMessage(message: string): Path<ResourceFormValues> | undefined {
  const m = /^(?:\[\d+\] )?(name|labels|schedule|spec|icon|namespace)\b/.exec(message);
  return m ? (m[1] as Path<ResourceFormValues>) : undefined;
}

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && !v.length);

/**
 * A row that comes from somewhere else (source KubernetesCRD, a sync) is changed there: seed 002
 * section 4 allows a save only when the source is UI or empty. The server refuses the write too.
 */
const isManagedElsewhere = (row: SettingsRow | null | undefined) => !!row?.id && !!row.source && row.source !== 'UI';

/**
 * The spec form (seed 002 sections 2.8, 4 and 5): Name, Icon, Namespace, Labels (JSON), Schedule,
 * Spec (YAML with the kind's schema), Save for a new resource, Update and Delete for one with an
 * id. It opens on the Form tab for kinds with a spec form and on the Code tab otherwise.
 */
export function ResourceForm({ config: c, row, canWrite, onSaved, onDeleted }: ResourceFormProps) {
  const formType = !!c.schemaKind;
  const editing = !!row?.id;
  const managedElsewhere = isManagedElsewhere(row);
  const readOnly = !canWrite || managedElsewhere;
  const [tab, setTab] = useState<Tab>(formType ? 'form' : 'code');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = useForm<ResourceFormValues>({ mode: 'onTouched', defaultValues: initialValues(c, row) });
  const { control, handleSubmit, getValues, setValue, setError, formState } = form;
  const schema = useJsonSchema(c.schemaKind);
  const { create, update, remove } = useSettingsMutations(c);
  const whoami = useWhoami();
  const ids = { labels: useId(), schedule: useId(), spec: useId(), code: useId(), source: useId() };
  const busy = create.isPending || update.isPending;
  // On the Code tab the document is what gets saved: a mapping, with a name where one is needed.
  const code = useWatch({ control, name: 'code' });
  const codeValid =
    parseYamlMapping(code) !== undefined && (!!c.codeFields || !!valuesFromCode(c, code, getValues())?.name.trim());
  const invalid = tab === 'form' ? !formState.isValid : !codeValid;

  // The Schedule select and a `schedule` in the Spec YAML are one value: typing a schedule in the
  // spec moves the select to it, choosing one in the select rewrites the spec's key.
  const specSchedule = useRef(scheduleInSpec(form.getValues('spec')));
  const onSpecTyped = (text: string) => {
    const typed = scheduleInSpec(text);
    if (typed === null || typed === specSchedule.current) return; // unparseable YAML is ignored
    specSchedule.current = typed;
    if (typed && c.fields.includes('schedule') && typed !== getValues('schedule'))
      setValue('schedule', typed, { shouldDirty: true });
  };
  const onScheduleChosen = (schedule: string) => {
    const spec = getValues('spec');
    const next = withSpecSchedule(spec, schedule);
    if (next !== spec) {
      setValue('spec', next, { shouldDirty: true });
      specSchedule.current = scheduleInSpec(next);
    }
  };

  const switchTab = (next: Tab) => {
    if (next === tab) return;
    const v = getValues();
    if (next === 'code') setValue('code', toYaml(codeDocument(c, v, row)));
    else {
      // Unparseable YAML is ignored: the form keeps what it had.
      const fromCode = valuesFromCode(c, v.code, v);
      if (fromCode) for (const [k, val] of Object.entries(fromCode)) setValue(k as keyof ResourceFormValues, val);
      specSchedule.current = scheduleInSpec(getValues('spec'));
    }
    setTab(next);
  };

  const payloadOf = (v: ResourceFormValues): Record<string, unknown> | undefined => {
    if (tab === 'form') return formPayload(c, v);
    const doc = parseYamlMapping(v.code);
    if (!doc) {
      setError('code', { message: CODE_YAML_MESSAGE });
      return undefined;
    }
    if (c.codeFields) {
      const picked = Object.fromEntries(Object.entries(doc).filter(([k]) => c.codeFields!.includes(k)));
      const missing = c.requiredCodeFields?.find((k) => isBlank(picked[k]));
      if (missing) {
        setError('code', { message: `${missing}: ${FIELD_REQUIRED_MESSAGE}` });
        return undefined;
      }
      return picked;
    }
    const values = valuesFromCode(c, v.code, v)!;
    if (!values.name.trim()) {
      setError('code', { message: `name: ${FIELD_REQUIRED_MESSAGE}` });
      return undefined;
    }
    return formPayload(c, values);
  };

  const showServerError = (err: unknown) => {
    const message = errorMessage(err);
    const field = fieldOfMessage(message);
    // 'events is required' on the Code tab of a notification rule
    const codeField = c.codeFields?.some((k) => new RegExp(`^${k}\\b`).test(message));
    if (tab === 'code' && (field || codeField)) setError('code', { message });
    else if (field && (field === 'name' || c.fields.includes(field as never))) setError(field, { message });
    else toastError(err);
  };

  const submit = handleSubmit(async (v) => {
    const payload = payloadOf(v);
    if (!payload) return;
    try {
      if (editing) {
        const saved = await update.mutateAsync({ id: row!.id, payload });
        toastSuccess(updatedMessage(rowName(saved ?? { ...row!, ...payload })));
        onSaved(saved);
      } else {
        const saved = await create.mutateAsync({ ...payload, created_by: whoami.user.id });
        toastSuccess(createdMessage(rowName(saved)));
        onSaved(saved);
      }
    } catch (err) {
      showServerError(err);
    }
  });

  const doDelete = async () => {
    if (!row) return;
    try {
      await remove.mutateAsync(row.id);
      toastSuccess(deletedMessage(rowName(row)));
      setConfirmDelete(false);
      onDeleted?.();
    } catch (err) {
      toastError(err);
    }
  };

  const tabClass = (t: Tab) =>
    cn(
      '-mb-px border-b-2 px-3 py-1.5 text-sm font-medium',
      tab === t ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-500 hover:text-gray-800',
    );

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="flex min-h-0 flex-col gap-4" aria-label={`${c.name} form`}>
        <Tabs.Root value={tab} onValueChange={(t) => switchTab(t as Tab)}>
          <Tabs.List className="mb-4 flex gap-1 border-b border-gray-200" aria-label="Editor">
            {formType && (
              <Tabs.Trigger value="form" className={tabClass('form')}>
                Form
              </Tabs.Trigger>
            )}
            <Tabs.Trigger value="code" className={tabClass('code')}>
              Code
            </Tabs.Trigger>
          </Tabs.List>
          {formType && (
            <Tabs.Content value="form" className="space-y-4">
              <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
                <TextField<ResourceFormValues>
                  name="name"
                  label="Name"
                  required
                  disabled={editing || readOnly}
                  autoComplete="off"
                />
                {c.fields.includes('icon') && (
                  <TextField<ResourceFormValues>
                    name="icon"
                    label="Icon"
                    disabled={readOnly}
                    placeholder="e.g. kubernetes"
                  />
                )}
                {c.fields.includes('namespace') && (
                  <TextField<ResourceFormValues> name="namespace" label="Namespace" disabled={editing || readOnly} />
                )}
                {c.fields.includes('schedule') && (
                  <Controller
                    control={control}
                    name="schedule"
                    render={({ field, fieldState }) => {
                      const options = [...SCHEDULE_OPTIONS] as string[];
                      if (field.value && !options.includes(field.value)) options.unshift(field.value);
                      return (
                        <FormField label="Schedule" htmlFor={ids.schedule} error={fieldState.error?.message}>
                          <select
                            id={ids.schedule}
                            {...field}
                            onChange={(e) => {
                              field.onChange(e);
                              onScheduleChosen(e.target.value);
                            }}
                            disabled={readOnly}
                            className={inputClass(!!fieldState.error)}
                          >
                            <option value="">None</option>
                            {options.map((o) => (
                              <option key={o} value={o}>
                                {o}
                              </option>
                            ))}
                          </select>
                        </FormField>
                      );
                    }}
                  />
                )}
                {editing && (
                  <FormField label="Source" htmlFor={ids.source}>
                    <input id={ids.source} value={row?.source ?? ''} readOnly className={inputClass()} />
                  </FormField>
                )}
              </div>
              {c.fields.includes('labels') && (
                <Controller
                  control={control}
                  name="labels"
                  rules={{ validate: (v) => parseLabels(v) !== undefined || LABELS_JSON_MESSAGE }}
                  render={({ field, fieldState }) => (
                    <FormField
                      label="Labels"
                      htmlFor={ids.labels}
                      error={fieldState.error?.message}
                      hint='A JSON object, e.g. {"env": "production"}'
                    >
                      <CodeEditor
                        id={ids.labels}
                        aria-label="Labels"
                        language="json"
                        schema={LABELS_SCHEMA}
                        value={field.value}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                        readOnly={readOnly}
                        invalid={!!fieldState.error}
                        height="6rem"
                      />
                    </FormField>
                  )}
                />
              )}
              <Controller
                control={control}
                name="spec"
                rules={{ validate: (v) => parseYamlMapping(v) !== undefined || SPEC_YAML_MESSAGE }}
                render={({ field, fieldState }) => (
                  <FormField label="Spec" htmlFor={ids.spec} error={fieldState.error?.message}>
                    <CodeEditor
                      id={ids.spec}
                      aria-label="Spec"
                      language="yaml"
                      schema={schema.data}
                      value={field.value}
                      onChange={(text) => {
                        field.onChange(text);
                        onSpecTyped(text);
                      }}
                      onBlur={field.onBlur}
                      readOnly={readOnly}
                      invalid={!!fieldState.error}
                      height="16rem"
                    />
                  </FormField>
                )}
              />
            </Tabs.Content>
          )}
          <Tabs.Content value="code">
            <Controller
              control={control}
              name="code"
              render={({ field, fieldState }) => (
                <FormField label="Resource (YAML)" htmlFor={ids.code} error={fieldState.error?.message}>
                  <CodeEditor
                    id={ids.code}
                    aria-label="Resource YAML"
                    language="yaml"
                    value={field.value}
                    onChange={field.onChange}
                    readOnly={readOnly}
                    invalid={!!fieldState.error}
                    height="28rem"
                  />
                </FormField>
              )}
            />
          </Tabs.Content>
        </Tabs.Root>
        {managedElsewhere && (
          <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
            This {c.name.toLowerCase()} comes from {row!.source}: it can only be changed there.
          </p>
        )}
        {canWrite && !managedElsewhere && (
          <div className="flex items-center justify-end gap-2 border-t border-gray-200 pt-3">
            {editing && (
              <Button
                variant="danger"
                onClick={() => setConfirmDelete(true)}
                disabled={remove.isPending}
                className="mr-auto"
              >
                <Trash2 size={14} aria-hidden /> Delete
              </Button>
            )}
            <Button
              type="submit"
              variant="primary"
              disabled={busy || formState.isSubmitting || (!!c.disableSubmitWhileInvalid && invalid)}
            >
              {busy ? (editing ? 'Updating…' : 'Saving…') : editing ? 'Update' : (c.addLabel ?? 'Save')}
            </Button>
          </div>
        )}
      </form>
      <Modal
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${c.name}`}
        size="small"
        footer={
          <>
            <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
            <Button variant="danger" onClick={() => void doDelete()} disabled={remove.isPending}>
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm text-gray-700">
          Delete <strong>{row ? rowName(row) : ''}</strong>? It stops running and disappears from the list; its job
          history is kept.
        </p>
      </Modal>
    </FormProvider>
  );
}
