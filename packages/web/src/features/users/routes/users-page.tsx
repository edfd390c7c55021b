/**
 * /settings/users (seed 002 section 2.17): the users table with the highest role shown, an
 * Invite User button, and edit and delete per row, plus the row's access tokens (listed and
 * revoked by an administrator). Reading needs identities read (the route guard), the buttons
 * identities write. Paged on the server, page and size in the URL.
 */
import { useMemo, useState } from 'react';
import { KeyRound, Pencil, RotateCw, Trash2, UserPlus } from 'lucide-react';
import type { UserRecord } from '@watchdeck/core';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useCan, useWhoami } from '#web/lib/session.tsx';
import { usePaginationParams } from '#web/lib/url-state.ts';
import { fullName } from '../api/full-name.ts';
import { useUsers } from '../api/users.ts';
import { InviteUserDialog } from '../components/invite-user-dialog.tsx';
import { EditUserDialog } from '../components/edit-user-dialog.tsx';
import { DeleteUserDialog } from '../components/delete-user-dialog.tsx';
import { UserTokensDialog } from '../components/user-tokens-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';

const ROLE_BADGE: Record<UserRecord['role'], string> = {
  admin: 'bg-purple-100 text-purple-800',
  editor: 'bg-blue-100 text-blue-800',
  viewer: 'bg-gray-100 text-gray-700',
};

const col = dataTableColumns<UserRecord>();

export function UsersPage() {
  const { pageIndex, pageSize, setPagination } = usePaginationParams();
  const users = useUsers(pageIndex, pageSize);
  const canWrite = useCan('identities', 'write');
  const me = useWhoami().user.id;
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<UserRecord | null>(null);
  const [deleting, setDeleting] = useState<UserRecord | null>(null);
  const [tokensOf, setTokensOf] = useState<UserRecord | null>(null);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor((u) => fullName(u), {
          id: 'name',
          header: 'Name',
          cell: ({ row }) => (
            <span className="inline-flex items-center gap-2 font-medium text-gray-900">
              <span
                aria-hidden
                className="inline-flex h-7 w-7 items-center justify-center rounded-full bg-gray-200 text-xs font-semibold text-gray-600"
              >
                {`${row.original.name.first[0] ?? ''}${row.original.name.last[0] ?? ''}`.toUpperCase()}
              </span>
              <span>{fullName(row.original)}</span>
            </span>
          ),
        }),
        col.accessor('email', { header: 'Email', cell: (c) => c.getValue() ?? '—' }),
        col.accessor('role', {
          header: 'Role',
          cell: ({ row }) => (
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${ROLE_BADGE[row.original.role]}`}
              title={row.original.roles.length ? `Roles: ${row.original.roles.join(', ')}` : 'No roles (viewer)'}
            >
              {row.original.role}
            </span>
          ),
        }),
        col.accessor('state', {
          header: 'State',
          cell: ({ row }) =>
            row.original.active ? (
              <span className="text-green-700">active</span>
            ) : (
              <span className="text-gray-500">{row.original.state}</span>
            ),
        }),
        col.accessor('last_login', {
          header: 'Last Login',
          cell: (c) => <RelativeTime at={c.getValue()} fallback={<span className="text-gray-400">—</span>} />,
        }),
        col.accessor('created_at', {
          header: 'Created',
          cell: (c) => <RelativeTime at={c.getValue()} fallback={<span className="text-gray-400">—</span>} />,
        }),
        ...(canWrite
          ? [
              col.display({
                id: 'actions',
                header: () => <span className="sr-only">Actions</span>,
                meta: { align: 'right' as const, className: 'w-32' },
                cell: ({ row }) => (
                  <span className="inline-flex gap-1">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Access tokens of ${fullName(row.original)}`}
                      title="Access tokens"
                      onClick={() => setTokensOf(row.original)}
                    >
                      <KeyRound size={15} aria-hidden />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Edit ${fullName(row.original)}`}
                      onClick={() => setEditing(row.original)}
                    >
                      <Pencil size={15} aria-hidden />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Delete ${fullName(row.original)}`}
                      // the server refuses deleting oneself too; no button to click in vain
                      disabled={row.original.id === me}
                      onClick={() => setDeleting(row.original)}
                    >
                      <Trash2 size={15} aria-hidden />
                    </Button>
                  </span>
                ),
              }),
            ]
          : []),
      ]),
    [canWrite, me],
  );

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Users">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Users</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Refresh"
          onClick={() => void users.refetch()}
          disabled={users.isFetching}
        >
          <RotateCw size={15} className={users.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setInviting(true)}>
            <UserPlus size={14} aria-hidden /> Invite User
          </Button>
        )}
      </PageTitle>
      {users.error && !users.data ? (
        <ErrorAlert error={users.error} />
      ) : (
        <DataTable
          label="Users"
          columns={columns}
          data={users.data?.data ?? []}
          getRowId={(u) => u.id}
          isLoading={users.isPending}
          enableSorting={false}
          pageIndex={pageIndex}
          pageSize={pageSize}
          rowCount={users.data?.totalEntries ?? 0}
          onPaginationChange={setPagination}
        />
      )}
      <InviteUserDialog open={inviting} onOpenChange={setInviting} />
      {editing && <EditUserDialog key={editing.id} user={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteUserDialog key={deleting.id} user={deleting} onClose={() => setDeleting(null)} />}
      {tokensOf && <UserTokensDialog key={tokensOf.id} user={tokensOf} onClose={() => setTokensOf(null)} />}
    </div>
  );
}
