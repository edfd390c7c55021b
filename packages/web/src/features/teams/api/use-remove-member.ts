import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { teamMembersKey } from './team-members.ts';

export function useRemoveMember(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (personId: string) => {
      unwrap(await db.from('team_members').delete().eq('team_id', teamId).eq('person_id', personId));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: teamMembersKey(teamId) }),
  });
}
