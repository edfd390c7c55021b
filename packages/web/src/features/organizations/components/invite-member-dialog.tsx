import { useState, type FormEvent } from 'react';
import { inviteMemberSchema, ROLES, type Role } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { inviteMember } from '../api/organizations.ts';

const field =
  'mt-1 h-9 w-full rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500';

/**
 * Invites someone to the organisation by email (its admins only). A plain form in a modal: the
 * email field has focus when it opens, Tab reaches the role and the buttons, Enter sends, Escape
 * closes. The server sends the email; the person accepts in the organisation picker.
 */
export function InviteMemberDialog({
  slug,
  organization,
  open,
  onOpenChange,
  onInvited,
}: {
  slug: string;
  organization: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onInvited: () => void;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const close = (next: boolean) => {
    if (!next) {
      setEmail('');
      setRole('viewer');
      setErrors({});
    }
    onOpenChange(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = inviteMemberSchema.safeParse({ email: email.trim(), role });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const sent = await inviteMember(slug, parsed.data);
      toastSuccess(
        sent.mail === 'sent'
          ? `Invitation sent to ${sent.email}.`
          : `Invitation saved for ${sent.email}. The server has no mail server set, so no email went out.`,
      );
      onInvited();
      close(false);
    } catch (err) {
      const fields = (err as { body?: { errors?: Record<string, string> } }).body?.errors;
      if (fields) setErrors(fields);
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Invite a member"
      description={`They get an email and join ${organization} once they accept, signed in with that address.`}
      size="small"
      footer={
        <>
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" form="invite-member" variant="primary" disabled={busy}>
            {busy && <Spinner size={14} />}
            Send invitation
          </Button>
        </>
      }
    >
      <form id="invite-member" onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <label className="block text-sm font-medium text-gray-700">
          Email
          <input
            autoFocus
            type="email"
            name="email"
            autoComplete="off"
            className={field}
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              // an error shown for what was typed before goes once it is edited
              if (errors.email) setErrors(({ email: _gone, ...rest }) => rest);
            }}
            aria-invalid={!!errors.email}
            aria-describedby={errors.email ? 'invite-email-error' : undefined}
          />
          {errors.email && (
            <span id="invite-email-error" className="mt-1 block text-xs font-normal text-red-600">
              {errors.email}
            </span>
          )}
        </label>
        <label className="block text-sm font-medium text-gray-700">
          Role
          <select name="role" className={field} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {errors.role && <span className="mt-1 block text-xs font-normal text-red-600">{errors.role}</span>}
        </label>
      </form>
    </Modal>
  );
}
