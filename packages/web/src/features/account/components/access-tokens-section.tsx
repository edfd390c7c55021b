import { useState, type FormEvent } from 'react';
import { KeyRound, Trash2 } from 'lucide-react';
import { ROLES, roleWithin, type Role } from '@watchdeck/core';
import { inputClass } from '#web/components/forms/form-field.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { ShownOnce } from '#web/components/ui/shown-once.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useAccessTokens, type AccessToken } from '../api/use-access-tokens.ts';
import { useCreateAccessToken } from '../api/use-create-access-token.ts';
import { useRevokeAccessToken } from '../api/use-revoke-access-token.ts';

/** Lifetimes offered for a new token; the server takes any duration. */
const TOKEN_LIFETIMES = [
  { label: '30 days', value: '30d' },
  { label: '90 days', value: '90d' },
  { label: '1 year', value: '1y' },
  { label: 'No expiry', value: '' },
] as const;

/** The role select's value for an unscoped token: it acts with the owner's current roles. */
const OWN_ROLES = '';
const OWN_ROLES_LABEL = 'My roles';

/**
 * /profile-settings: personal access tokens for scripts and the kubeconfig
 * (`Authorization: Bearer <token>`). A token acts as its owner, with the owner's current roles or
 * with a role chosen here, never above the owner's (the server checks; the list only offers those).
 */
export function AccessTokensSection() {
  const tokens = useAccessTokens();
  const create = useCreateAccessToken();
  const revoke = useRevokeAccessToken();
  const myRoles = useWhoami().roles;
  const scopes = ROLES.filter((r) => roleWithin(r, myRoles));
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState<string>(TOKEN_LIFETIMES[0].value);
  const [role, setRole] = useState<string>(OWN_ROLES);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    try {
      const t = await create.mutateAsync({
        name: name.trim(),
        expires_in: lifetime || null,
        role: role === OWN_ROLES ? null : (role as Role),
      });
      setCreated({ name: t.name, token: t.token });
      setName('');
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <section
      aria-labelledby="settings-tokens-title"
      data-testid="settings-tokens"
      className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm"
    >
      <h2 id="settings-tokens-title" className="text-base font-semibold text-gray-900">
        Access tokens
      </h2>
      <p className="mt-1 mb-4 text-sm text-gray-500">
        For scripts and kubectl: send a token as <code className="text-xs">Authorization: Bearer &lt;token&gt;</code>.
        It acts as you, with your roles or with a lower role you choose.
      </p>

      <form onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-2">
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm text-gray-700">
          Token name
          <input
            className={inputClass()}
            value={name}
            maxLength={200}
            placeholder="e.g. CI pipeline"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm text-gray-700">
          Expires in
          <select className={inputClass()} value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
            {TOKEN_LIFETIMES.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm text-gray-700">
          Role
          <select className={inputClass()} value={role} onChange={(e) => setRole(e.target.value)}>
            <option value={OWN_ROLES}>{OWN_ROLES_LABEL}</option>
            {scopes.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="primary" disabled={!name.trim() || create.isPending}>
          {create.isPending ? <Spinner size={14} /> : <KeyRound size={14} aria-hidden />}
          Create token
        </Button>
      </form>

      {created && (
        <div className="mt-4 space-y-2">
          <p className="text-sm text-gray-700">
            Token <strong>{created.name}</strong> created.
          </p>
          <ShownOnce value={created.token} />
          <Button size="sm" variant="ghost" onClick={() => setCreated(null)}>
            Done
          </Button>
        </div>
      )}

      <div className="mt-5">
        {tokens.isPending ? (
          <Spinner size={16} />
        ) : tokens.isError ? (
          <ErrorAlert error={tokens.error} />
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-gray-500">No access tokens yet.</p>
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
                  <td className="py-2 text-gray-600">{t.role ?? OWN_ROLES_LABEL}</td>
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
      </div>

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
            toastSuccess(`${revoking.name} deleted successfully`);
          } catch (err) {
            toastError(err);
            throw err;
          }
        }}
      />
    </section>
  );
}
