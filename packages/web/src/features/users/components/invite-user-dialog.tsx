import { useId, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { copyToClipboard } from '#web/lib/clipboard.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useInviteUser } from '../api/use-invite-user.ts';
import { applyServerErrors, EMPTY_USER, UserForm, useUserForm, type UserFormValues } from './user-form.tsx';

const INVITED_MESSAGE = 'User has been invited successfully. Please share the link with the user.';
const LINK_COPIED_MESSAGE = 'Link copied to clipboard';

/**
 * Invite User: the form, then the invitation link (shown once here; the server keeps only its
 * hash) with a copy button. Opening the link signs the invitee in to choose a password.
 */
export function InviteUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const formId = useId();
  const form = useUserForm(EMPTY_USER);
  const invite = useInviteUser();
  const [link, setLink] = useState<string | null>(null);

  const close = (next: boolean) => {
    if (!next) {
      // start afresh next time: a new form, no old link
      form.reset(EMPTY_USER);
      setLink(null);
      invite.reset();
    }
    onOpenChange(next);
  };

  const submit = async ({ firstName, lastName, email, role }: UserFormValues) => {
    try {
      const res = await invite.mutateAsync({ firstName, lastName, email, role });
      toastSuccess(INVITED_MESSAGE);
      setLink(res.link);
    } catch (err) {
      if (!applyServerErrors(form, err)) toastError(err);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Invite User"
      size="small"
      footer={
        link ? (
          <Button variant="primary" onClick={() => close(false)}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={() => close(false)}>Cancel</Button>
            <Button variant="primary" type="submit" form={formId} disabled={invite.isPending}>
              {invite.isPending ? 'Inviting…' : 'Invite'}
            </Button>
          </>
        )
      }
    >
      {link ? <InviteLink link={link} /> : <UserForm id={formId} form={form} mode="invite" onSubmit={submit} />}
    </Modal>
  );
}

function InviteLink({ link }: { link: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-3" data-testid="invite-link">
      <p className="flex items-start gap-2 text-sm text-green-800">
        <Check size={16} aria-hidden className="mt-0.5 shrink-0" />
        {INVITED_MESSAGE}
      </p>
      <label className="block text-sm font-medium text-gray-700" htmlFor="invite-link-value">
        Invitation link
      </label>
      <div className="flex gap-2">
        <input
          id="invite-link-value"
          readOnly
          value={link}
          onFocus={(e) => e.currentTarget.select()}
          className="block w-full rounded-md border border-gray-300 bg-gray-50 px-2.5 py-1.5 font-mono text-xs text-gray-800"
        />
        <Button
          aria-label="Copy link"
          onClick={() => void copyToClipboard(link, LINK_COPIED_MESSAGE).then((ok) => setCopied(ok))}
        >
          {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />} Copy
        </Button>
      </div>
      <p className="text-xs text-gray-500">
        The link works once and expires in 7 days. It signs the user in so they can choose a password.
      </p>
    </div>
  );
}
