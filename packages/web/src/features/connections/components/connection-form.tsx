import { useId, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { ArrowLeft, PlugZap, Trash2 } from 'lucide-react';
import { connectionFields, type ConnectionField, type ConnectionTypeDef } from '@watchdeck/core';
import {
  FIELD_REQUIRED_MESSAGE,
  FormField,
  NumberField,
  TextField,
  ValueSourceField,
  inputClass,
} from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { useCreateConnection } from '../api/use-create-connection.ts';
import { useUpdateConnection } from '../api/use-update-connection.ts';
import { useDeleteConnection } from '../api/use-delete-connection.ts';
import type { ConnectionRow } from '../api/use-connections.ts';
import { useTestConnection } from '../api/test-connection.ts';
import { CONNECTION_MESSAGES } from '../messages.ts';
import { connectionPayload, initialFormValues, type ConnectionFormValues } from './form-model.ts';
import { ConnectionIcon } from './connection-icon.tsx';

export interface ConnectionFormProps {
  def: ConnectionTypeDef;
  /** the connection being edited; null for a new one */
  row: ConnectionRow | null;
  canWrite: boolean;
  onSaved: () => void;
  onDeleted: () => void;
  /** back to the type chooser (new connections) */
  onBack?: () => void;
}

function CheckboxField({ field, disabled }: { field: ConnectionField; disabled: boolean }) {
  const id = useId();
  return (
    <Controller
      name={field.key}
      render={({ field: f }) => (
        <div className="flex items-center gap-2 pt-1">
          <input
            id={id}
            type="checkbox"
            ref={f.ref}
            checked={f.value === true}
            disabled={disabled}
            onChange={(e) => f.onChange(e.target.checked)}
            onBlur={f.onBlur}
            className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
          />
          <label htmlFor={id} className="text-sm text-gray-700">
            {field.label}
          </label>
        </div>
      )}
    />
  );
}

function SelectField({ field, disabled }: { field: ConnectionField; disabled: boolean }) {
  const id = useId();
  return (
    <Controller
      name={field.key}
      rules={field.required ? { required: FIELD_REQUIRED_MESSAGE } : undefined}
      render={({ field: f, fieldState }) => (
        <FormField
          label={field.label}
          htmlFor={id}
          required={field.required}
          hint={field.hint}
          error={fieldState.error?.message}
        >
          <select
            id={id}
            ref={f.ref}
            value={String(f.value ?? '')}
            disabled={disabled}
            onChange={(e) => f.onChange(e.target.value)}
            onBlur={f.onBlur}
            className={inputClass(!!fieldState.error)}
          >
            {!field.required && <option value="">—</option>}
            {field.options?.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </FormField>
      )}
    />
  );
}

function FieldInput({ field, disabled }: { field: ConnectionField; disabled: boolean }) {
  switch (field.kind) {
    case 'checkbox':
      return <CheckboxField field={field} disabled={disabled} />;
    case 'select':
      return <SelectField field={field} disabled={disabled} />;
    case 'number':
      return (
        <NumberField<ConnectionFormValues>
          name={field.key}
          label={field.label}
          required={field.required}
          hint={field.hint}
          disabled={disabled}
        />
      );
    case 'value':
    case 'secret':
      return (
        <ValueSourceField<ConnectionFormValues>
          name={field.key}
          label={field.label}
          required={field.required}
          hint={field.hint}
          secret={field.kind === 'secret'}
          multiline={field.multiline}
          disabled={disabled}
        />
      );
    default:
      return (
        <TextField<ConnectionFormValues>
          name={field.key}
          label={field.label}
          required={field.required}
          hint={field.hint}
          disabled={disabled}
        />
      );
  }
}

/**
 * The form of one connection type: its field list (core connection-types.ts) with Name and
 * Namespace first. A new connection has Save; an existing one Update, Delete and Test Connection
 * (seed 002 sections 2.12, 4, 5 and 8). Without write access everything is read-only.
 */
export function ConnectionForm({ def, row, canWrite, onSaved, onDeleted, onBack }: ConnectionFormProps) {
  const editing = !!row?.id && !!row.created_at;
  const form = useForm<ConnectionFormValues>({ mode: 'onTouched', defaultValues: initialFormValues(def, row) });
  const create = useCreateConnection();
  const update = useUpdateConnection();
  const remove = useDeleteConnection();
  const tester = useTestConnection();
  const whoami = useWhoami();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const busy = create.isPending || update.isPending;
  const readOnly = !canWrite;

  const submit = form.handleSubmit(async (values) => {
    const payload = connectionPayload(def, values, editing);
    try {
      if (editing) {
        await update.mutateAsync({ id: row!.id, payload });
        toastSuccess(CONNECTION_MESSAGES.updated);
      } else {
        await create.mutateAsync({ ...payload, created_by: whoami.user.id });
        toastSuccess(CONNECTION_MESSAGES.added);
      }
      onSaved();
    } catch (err) {
      toastError(err);
    }
  });

  const doDelete = async () => {
    try {
      await remove.mutateAsync(row!.id);
      toastSuccess(CONNECTION_MESSAGES.deleted);
      setConfirmDelete(false);
      onDeleted();
    } catch (err) {
      toastError(err);
    }
  };

  const runTest = async () => {
    const outcome = await tester.mutateAsync(row!.id);
    if (outcome.kind === 'success') toastSuccess(outcome.message);
    else toastError(outcome.message);
  };

  const dirty = form.formState.isDirty;
  return (
    <FormProvider {...form}>
      <form
        onSubmit={(e) => void submit(e)}
        noValidate
        className="flex min-h-0 flex-col"
        aria-label={`${def.title} connection`}
      >
        <div className="mb-4 flex items-center gap-2 text-sm text-gray-600">
          <ConnectionIcon type={def.type} size={18} className="text-gray-500" />
          <span className="font-medium text-gray-900">{def.title}</span>
        </div>
        <div className="grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2">
          {connectionFields(def).map((f) => (
            <div
              key={f.key}
              className={
                f.multiline || f.kind === 'secret' || f.kind === 'value' || f.column === 'url'
                  ? 'sm:col-span-2'
                  : undefined
              }
            >
              <FieldInput field={f} disabled={readOnly || (editing && (f.key === 'name' || f.key === 'namespace'))} />
            </div>
          ))}
        </div>
        <div className="mt-5 flex items-center gap-2 border-t border-gray-200 pt-4">
          {onBack && !editing && (
            <Button onClick={onBack}>
              <ArrowLeft size={14} aria-hidden /> Back
            </Button>
          )}
          {editing && canWrite && (
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              <Trash2 size={14} aria-hidden /> Delete
            </Button>
          )}
          <div className="ml-auto flex items-center gap-2">
            {editing && canWrite && (
              <Button
                onClick={() => void runTest()}
                disabled={tester.isPending || dirty}
                title={dirty ? 'Save your changes first: the test uses the saved connection' : undefined}
              >
                {tester.isPending ? <Spinner size={14} /> : <PlugZap size={14} aria-hidden />} Test Connection
              </Button>
            )}
            {canWrite && (
              <Button type="submit" variant="primary" disabled={busy}>
                {busy && <Spinner size={14} />}
                {editing ? 'Update' : 'Save'}
              </Button>
            )}
          </div>
        </div>
      </form>
      <Modal
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Connection ?"
        size="very-small"
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
          Delete the connection <strong>{row?.name}</strong>? Checks, scrapers and notifications that use it stop
          working.
        </p>
      </Modal>
    </FormProvider>
  );
}
