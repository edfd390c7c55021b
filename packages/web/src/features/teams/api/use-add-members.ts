import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';
import { teamMembersKey } from './team-members.ts';

export function useAddMembers(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (personIds: string[]) => {
      unwrap(await db.from('team_members').insert(personIds.map((person_id) => ({ team_id: teamId, person_id }))));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: teamMembersKey(teamId) }),
  });
}
