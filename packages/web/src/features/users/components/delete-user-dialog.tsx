import type { UserRecord } from '@watchdeck/core';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { fullName } from '../api/full-name.ts';
import { useDeleteUser } from '../api/use-delete-user.ts';

const DELETE_USER_TITLE = 'Delete User ?';
const USER_DELETED_MESSAGE = 'user deleted successfully';

/** The confirmation before a user is deleted (signed out everywhere, tokens revoked, history kept). */
export function DeleteUserDialog({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const remove = useDeleteUser();
  const confirm = async () => {
    try {
      await remove.mutateAsync(user.id);
      toastSuccess(USER_DELETED_MESSAGE);
      onClose();
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={DELETE_USER_TITLE}
      size="very-small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </Button>
        </>
      }
    >
      <p className="text-sm text-gray-700">
        Are you sure you want to delete <strong>{fullName(user)}</strong>
        {user.email ? ` (${user.email})` : ''}? They are signed out at once and can no longer sign in.
      </p>
    </Modal>
  );
}
