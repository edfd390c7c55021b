import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { AccessTokenRecord, UserRecord } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { fullName } from '../api/full-name.ts';
import { useRevokeUserToken } from '../api/use-revoke-user-token.ts';
import { useUserTokens } from '../api/user-tokens.ts';

const tokensTitle = (u: UserRecord) => `Access tokens of ${fullName(u)}`;
const tokenRevokedMessage = (name: string) => `${name} revoked`;

/**
 * An administrator's list of one user's personal access tokens, each revocable (a leaked token,
 * someone leaving). Values are never shown: the server keeps only hashes.
 */
export function UserTokensDialog({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const tokens = useUserTokens(user.id);
  const revoke = useRevokeUserToken(user.id);
  const [revoking, setRevoking] = useState<AccessTokenRecord | null>(null);

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={tokensTitle(user)}
      description="Tokens act as this user, with their roles or the role chosen for the token."
      size="medium"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {tokens.isPending ? (
        <Spinner size={16} />
      ) : tokens.isError ? (
        <ErrorAlert error={tokens.error} />
      ) : tokens.data.length === 0 ? (
        <p className="text-sm text-gray-500">No access tokens.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="border-b border-gray-200 text-xs text-gray-500 uppercase">
            <tr>
              <th className="py-2 font-medium">Name</th>
              <th className="py-2 font-medium">Role</th>
              <th className="py-2 font-medium">Created</th>
              <th className="py-2 font-medium">Expires</th>
              <th className="py-2 font-medium">Last used</th>
              <th className="py-2" aria-label="Actions" />
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {tokens.data.map((t) => (
              <tr key={t.id}>
                <td className="py-2 font-medium text-gray-900">{t.name}</td>
                <td className="py-2 text-gray-600">{t.role ?? 'Their roles'}</td>
                <td className="py-2 text-gray-600">
                  <RelativeTime at={t.created_at} />
                </td>
                <td className="py-2 text-gray-600">{t.expires_at ? formatDateTime(t.expires_at) : 'Never'}</td>
                <td className="py-2 text-gray-600">
                  <RelativeTime at={t.last_used_at} fallback="Never" />
                </td>
                <td className="py-2 text-right">
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Revoke ${t.name}`}
                    title="Revoke"
                    onClick={() => setRevoking(t)}
                  >
                    <Trash2 size={14} aria-hidden />
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(o) => !o && setRevoking(null)}
        title="Revoke access token"
        message={`Scripts using '${revoking?.name ?? ''}' will be refused from now on.`}
        confirmLabel="Revoke"
        onConfirm={async () => {
          if (!revoking) return;
          try {
            await revoke.mutateAsync(revoking.id);
            toastSuccess(tokenRevokedMessage(revoking.name));
          } catch (err) {
            toastError(err);
            throw err;
          }
        }}
      />
    </Modal>
  );
}
