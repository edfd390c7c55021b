/**
 * The user form of seed 002 section 5, for inviting (first name, last name, email, role) and
 * editing (the same plus whether the account is active). Validation runs once a field is
 * touched and on submit, with the seed's messages (shared with the server, core user-form.ts).
 */
import { useId, type ReactNode } from 'react';
import { FormProvider, useController, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ROLES, editUserSchema, type EditUserInput } from '@watchdeck/core';
import { FormField, TextField, inputClass } from '#web/components/forms/index.ts';
import { ApiError } from '#web/lib/http.ts';

export type UserFormValues = EditUserInput;

const ROLE_LABELS: Record<string, string> = {
  admin: 'Admin',
  editor: 'Editor',
  commander: 'Commander',
  responder: 'Responder',
  viewer: 'Viewer',
};

export function useUserForm(defaults: UserFormValues) {
  // one schema for both: the invite form has no Active switch and keeps its default (true)
  return useForm<UserFormValues>({ mode: 'onTouched', resolver: zodResolver(editUserSchema), defaultValues: defaults });
}

export const EMPTY_USER: UserFormValues = { firstName: '', lastName: '', email: '', role: '', active: true };

function RoleField() {
  const id = useId();
  const { field, fieldState } = useController<UserFormValues, 'role'>({ name: 'role' });
  const error = fieldState.error?.message;
  return (
    <FormField label="Role" htmlFor={id} error={error} required>
      <select
        id={id}
        {...field}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(!!error)}
      >
        <option value="">Select a role</option>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
    </FormField>
  );
}

function ActiveField() {
  const id = useId();
  const { field } = useController<UserFormValues, 'active'>({ name: 'active' });
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={!!field.value}
        onChange={(e) => field.onChange(e.target.checked)}
        onBlur={field.onBlur}
        className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
      />
      <label htmlFor={id} className="text-sm text-gray-700">
        Active <span className="text-gray-500">(an inactive user cannot sign in)</span>
      </label>
    </div>
  );
}

function UserFormFields({ mode }: { mode: 'invite' | 'edit' }) {
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField<UserFormValues> name="firstName" label="First Name" required autoComplete="off" />
        <TextField<UserFormValues> name="lastName" label="Last Name" required autoComplete="off" />
      </div>
      <TextField<UserFormValues> name="email" label="Email" required type="email" autoComplete="off" />
      <RoleField />
      {mode === 'edit' && <ActiveField />}
    </div>
  );
}

/** Wraps the fields in the form element so Enter submits; the dialog's footer button submits too. */
export function UserForm({
  id,
  form,
  mode,
  onSubmit,
  children,
}: {
  id: string;
  form: UseFormReturn<UserFormValues>;
  mode: 'invite' | 'edit';
  onSubmit: (values: UserFormValues) => void | Promise<void>;
  children?: ReactNode;
}) {
  return (
    <FormProvider {...form}>
      <form id={id} noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <UserFormFields mode={mode} />
        {children}
      </form>
    </FormProvider>
  );
}

/**
 * The server refuses with 400 {message, errors: {field: message}} (the same messages): put them
 * on the fields. Returns false when the error was not about fields (the caller toasts it).
 */
export function applyServerErrors(form: UseFormReturn<UserFormValues>, err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 400) return false;
  const errors = (err.body as { errors?: Record<string, string> } | undefined)?.errors;
  if (!errors) return false;
  let any = false;
  for (const [name, message] of Object.entries(errors)) {
    if (name in EMPTY_USER) {
      form.setError(name as keyof UserFormValues, { type: 'server', message });
      any = true;
    }
  }
  return any;
}
