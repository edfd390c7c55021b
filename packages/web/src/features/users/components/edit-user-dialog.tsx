import { useId, useState } from 'react';
import type { UserRecord } from '@watchdeck/core';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useUpdateUser } from '../api/use-update-user.ts';
import { applyServerErrors, UserForm, useUserForm, type UserFormValues } from './user-form.tsx';

const updatedMessage = (first: string, last: string) => `${first} ${last} updated successfully`;

/** The role shown and edited is one role: the stored one if there is exactly one, else the displayed one. */
function editableRole(u: UserRecord): string {
  return u.roles.length === 1 ? u.roles[0] : u.role;
}

/** Edit a user: name, email, role and whether the account is active. Mounted per user (key). */
export function EditUserDialog({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const formId = useId();
  const [initial] = useState<UserFormValues>(() => ({
    firstName: user.name.first,
    lastName: user.name.last,
    email: user.email ?? '',
    role: editableRole(user),
    active: user.active,
  }));
  const form = useUserForm(initial);
  const update = useUpdateUser();

  const submit = async (values: UserFormValues) => {
    // send only what changed, so an untouched role is not rewritten to the displayed one
    const patch: Partial<UserFormValues> = {};
    for (const k of Object.keys(values) as (keyof UserFormValues)[]) {
      const v = typeof values[k] === 'string' ? (values[k] as string).trim() : values[k];
      if (v !== initial[k]) Object.assign(patch, { [k]: v });
    }
    try {
      const saved = await update.mutateAsync({ id: user.id, ...patch });
      toastSuccess(updatedMessage(saved.name.first, saved.name.last));
      onClose();
    } catch (err) {
      if (!applyServerErrors(form, err)) toastError(err);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Edit User"
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={formId} disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save'}
          </Button>
        </>
      }
    >
      <UserForm id={formId} form={form} mode="edit" onSubmit={submit} />
    </Modal>
  );
}
