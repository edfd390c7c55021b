/**
 * /organizations/members (hosted mode): the current organisation's members and open invitations,
 * inviting by email, removing a member, withdrawing an invitation and deleting the organisation.
 * All of it is the control plane's (the root backend, with the browser's session) and its
 * organisation admins' only; the others see who they are in it and nothing to manage.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Building2, Trash2, UserMinus, UserPlus, X } from 'lucide-react';
import type { OrganizationInvite, OrganizationMember } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { clearBackend, currentBackend } from '#web/lib/backend.ts';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import {
  deleteOrganization,
  listMembers,
  listOrganizations,
  membersQueryKey,
  organizationsQueryKey,
  removeMember,
  withdrawInvitation,
} from '../api/organizations.ts';
import { InviteMemberDialog } from '../components/invite-member-dialog.tsx';

const ROLE_BADGE: Record<string, string> = {
  admin: 'bg-purple-100 text-purple-800',
  editor: 'bg-blue-100 text-blue-800',
};

function RoleBadge({ role }: { role: string }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${ROLE_BADGE[role] ?? 'bg-gray-100 text-gray-700'}`}>
      {role}
    </span>
  );
}

const th = 'px-4 py-2 text-left text-xs font-medium tracking-wide text-gray-500 uppercase';
const td = 'px-4 py-2.5 text-sm text-gray-700';

/** Back to the organisation picker: the current organisation is gone or no longer ours. */
function leave() {
  clearBackend();
  window.location.assign('/');
}

export function OrganizationMembersPage() {
  const backend = currentBackend();
  const me = useWhoami().user.id;
  const queryClient = useQueryClient();
  const slug = backend?.slug ?? '';
  const orgs = useQuery({
    queryKey: organizationsQueryKey,
    queryFn: ({ signal }) => listOrganizations(signal),
    enabled: !!backend,
  });
  const current = orgs.data?.find((o) => o.slug === slug);
  const isAdmin = current?.role === 'admin';
  const members = useQuery({
    queryKey: membersQueryKey(slug),
    queryFn: ({ signal }) => listMembers(slug, signal),
    enabled: isAdmin,
  });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<OrganizationMember | null>(null);
  const [withdrawing, setWithdrawing] = useState<OrganizationInvite | null>(null);
  const [deleting, setDeleting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: membersQueryKey(slug) });

  const title = <PageTitle documentTitle="Members">Organisation members</PageTitle>;
  if (!backend)
    return (
      <div className="p-6">
        {title}
        <p className="text-sm text-gray-600">Organisations exist in hosted mode only.</p>
      </div>
    );
  if (orgs.isPending)
    return (
      <div className="flex justify-center p-10">
        {title}
        <Spinner />
      </div>
    );
  if (orgs.error || !current)
    return (
      <div className="p-6">
        {title}
        <ErrorAlert error={orgs.error ?? new Error(`You are no member of ${slug}.`)} />
      </div>
    );

  const act = async (what: () => Promise<void>, done: string) => {
    try {
      await what();
      toastSuccess(done);
    } catch (err) {
      toastError(err);
      throw err;
    }
  };

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-6">
      {title}
      <header className="flex items-center gap-3">
        <Building2 size={22} className="text-gray-400" aria-hidden />
        <div className="min-w-0">
          <h1 className="truncate text-lg font-semibold text-gray-900">{current.name}</h1>
          <p className="text-sm text-gray-500">
            {current.slug} · your role: <RoleBadge role={current.role ?? 'viewer'} />
          </p>
        </div>
      </header>

      {!isAdmin ? (
        <p className="rounded-lg border border-gray-200 bg-white p-4 text-sm text-gray-600 shadow-sm">
          Only administrators of {current.name} can see and manage its members.
        </p>
      ) : (
        <>
          <section aria-labelledby="members-heading" className="rounded-lg border border-gray-200 bg-white shadow-sm">
            <div className="flex items-center justify-between border-b border-gray-200 px-4 py-3">
              <h2 id="members-heading" className="text-sm font-semibold text-gray-900">
                Members
              </h2>
              <Button variant="primary" size="sm" onClick={() => setInviting(true)}>
                <UserPlus size={14} aria-hidden /> Invite member
              </Button>
            </div>
            {members.isPending ? (
              <div className="flex justify-center p-6">
                <Spinner />
              </div>
            ) : members.error ? (
              <div className="p-4">
                <ErrorAlert error={members.error} />
              </div>
            ) : (
              <table className="w-full">
                <thead className="bg-gray-50">
                  <tr>
                    <th className={th}>Name</th>
                    <th className={th}>Email</th>
                    <th className={th}>Role</th>
                    <th className={th}>Joined</th>
                    <th className={th}>
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100">
                  {members.data.members.map((m) => (
                    <tr key={m.person_id}>
                      <td className={`${td} font-medium text-gray-900`}>
                        {m.name || '—'}
                        {m.person_id === me && <span className="ml-1 text-xs text-gray-400">(you)</span>}
                      </td>
                      <td className={td}>{m.email ?? '—'}</td>
                      <td className={td}>
                        <RoleBadge role={m.role} />
                      </td>
                      <td className={td}>
                        <RelativeTime at={m.joined_at} />
                      </td>
                      <td className={`${td} text-right`}>
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Remove ${m.name || m.email || 'member'}`}
                          title="Remove from the organisation"
                          onClick={() => setRemoving(m)}
                        >
                          <UserMinus size={15} aria-hidden />
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>

          {members.data && (
            <section aria-labelledby="invites-heading" className="rounded-lg border border-gray-200 bg-white shadow-sm">
              <h2
                id="invites-heading"
                className="border-b border-gray-200 px-4 py-3 text-sm font-semibold text-gray-900"
              >
                Open invitations
              </h2>
              {members.data.invites.length === 0 ? (
                <p className="p-4 text-sm text-gray-500">No open invitations.</p>
              ) : (
                <ul className="divide-y divide-gray-100">
                  {members.data.invites.map((i) => (
                    <li key={i.id} className="flex items-center gap-3 px-4 py-2.5 text-sm text-gray-700">
                      <span className="min-w-0 flex-1 truncate">{i.email}</span>
                      <RoleBadge role={i.role} />
                      <span className="w-32 text-gray-500">
                        <RelativeTime at={i.created_at} />
                      </span>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Withdraw the invitation of ${i.email}`}
                        title="Withdraw"
                        onClick={() => setWithdrawing(i)}
                      >
                        <X size={15} aria-hidden />
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )}

          <section aria-labelledby="delete-heading" className="rounded-lg border border-red-200 bg-white p-4 shadow-sm">
            <h2 id="delete-heading" className="text-sm font-semibold text-red-700">
              Delete this organisation
            </h2>
            <p className="mt-1 mb-3 text-sm text-gray-600">
              Its checks, catalog, incidents, settings and tokens are removed for good, and every member loses access.
            </p>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              <Trash2 size={14} aria-hidden /> Delete organisation
            </Button>
          </section>
        </>
      )}

      <InviteMemberDialog
        slug={slug}
        organization={current.name}
        open={inviting}
        onOpenChange={setInviting}
        onInvited={() => void refresh()}
      />
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && setRemoving(null)}
        title="Remove member ?"
        confirmLabel="Remove"
        message={
          removing && (
            <>
              Remove <strong>{removing.name || removing.email}</strong> from {current.name}? Their access and tokens
              there end now.
            </>
          )
        }
        onConfirm={async () => {
          const who = removing!;
          await act(() => removeMember(slug, who.person_id), `${who.name || who.email} was removed.`);
          if (who.person_id === me) return leave();
          await refresh();
        }}
      />
      <ConfirmDialog
        open={!!withdrawing}
        onOpenChange={(o) => !o && setWithdrawing(null)}
        title="Withdraw invitation ?"
        confirmLabel="Withdraw"
        message={withdrawing && <>The invitation of {withdrawing.email} can no longer be accepted.</>}
        onConfirm={async () => {
          const inv = withdrawing!;
          await act(() => withdrawInvitation(slug, inv.id), `The invitation of ${inv.email} was withdrawn.`);
          await refresh();
        }}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete organisation ?"
        confirmLabel="Delete organisation"
        message={
          <>
            Delete <strong>{current.name}</strong> ({current.slug}) and all its data? This cannot be undone.
          </>
        }
        onConfirm={async () => {
          await act(() => deleteOrganization(slug), `${current.name} was deleted.`);
          leave();
        }}
      />
    </div>
  );
}
