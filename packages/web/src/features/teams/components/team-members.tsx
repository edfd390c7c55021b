import { useEffect, useMemo, useState } from 'react';
import { UserMinus, UserPlus, Users } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { useCan } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useRemoveMember } from '../api/use-remove-member.ts';
import { useTeamMembers, type TeamMember } from '../api/team-members.ts';
import { AddMembersDialog } from './add-members-dialog.tsx';
import { NO_MEMBERS_MESSAGE, removedMessage } from './messages.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

const col = dataTableColumns<TeamMember>();

/**
 * The Members tab of a team (seed 002 section 2.18): who is on the team, add people, remove them.
 * The settings-resources detail page shows it; app/routes.ts passes it in (features do not import
 * each other). Changing members needs write on the 'database' resource, like the team itself.
 */
export function TeamMembers({ teamId }: { teamId: string }) {
  const members = useTeamMembers(teamId);
  const remove = useRemoveMember(teamId);
  const canWrite = useCan('database', 'write');
  const [adding, setAdding] = useState(false);
  // seed 002 section 8: failures loading team members show an error toast with the message
  useEffect(() => {
    if (members.error) toastError(members.error);
  }, [members.error]);
  const memberIds = useMemo(() => new Set((members.data ?? []).map((m) => m.person_id)), [members.data]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor((m) => m.person?.name ?? '', { id: 'name', header: 'Name' }),
        col.accessor((m) => m.person?.email ?? '', { id: 'email', header: 'Email' }),
        col.accessor('created_at', {
          header: 'Added',
          cell: (c) => (
            <Tooltip content={formatDateTime(c.getValue())}>
              <span>{formatRelative(c.getValue())}</span>
            </Tooltip>
          ),
        }),
        ...(canWrite
          ? [
              col.display({
                id: 'remove',
                header: () => <span className="sr-only">Remove</span>,
                meta: { align: 'right' as const, className: 'w-16' },
                cell: ({ row }) => {
                  const name = row.original.person?.name ?? '';
                  return (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove ${name}`}
                      disabled={remove.isPending && remove.variables === row.original.person_id}
                      onClick={() =>
                        remove.mutate(row.original.person_id, {
                          onSuccess: () => toastSuccess(removedMessage(name)),
                          onError: (err) => void toastError(err),
                        })
                      }
                    >
                      <UserMinus size={15} aria-hidden />
                    </Button>
                  );
                },
              }),
            ]
          : []),
      ]),
    [canWrite, remove],
  );

  return (
    <section aria-label="Team members" className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 className="inline-flex items-center gap-2 text-sm font-semibold text-gray-900">
          <Users size={16} aria-hidden /> Members
          {members.data && (
            <span className="rounded-full bg-gray-200 px-1.5 text-xs font-medium text-gray-600">
              {members.data.length}
            </span>
          )}
        </h2>
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <UserPlus size={14} aria-hidden /> Add Members
          </Button>
        )}
      </div>
      {members.error ? (
        <ErrorAlert error={members.error} />
      ) : (
        <DataTable
          label="Team members"
          columns={columns}
          data={members.data ?? []}
          getRowId={(m) => m.person_id}
          isLoading={members.isPending}
          emptyMessage={NO_MEMBERS_MESSAGE}
          pagination={false}
        />
      )}
      <AddMembersDialog teamId={teamId} memberIds={memberIds} open={adding} onOpenChange={setAdding} />
    </section>
  );
}
