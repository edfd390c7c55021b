import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '../../../lib/api.ts';

/**
 * Team membership through /api/db (seed 000 section 7: team_members with the person embedded,
 * POST an array of {team_id, person_id}, DELETE by person). Both tables belong to the 'database'
 * resource: everyone reads them, admins and editors change them.
 */

export interface Person {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
}

export interface TeamMember {
  team_id: string;
  person_id: string;
  created_at: string;
  person: (Person & { deleted_at: string | null }) | null;
}

export const teamMembersKey = (teamId: string) => ['teams', teamId, 'members'] as const;

/** Everyone the picker can offer; people are few enough to filter in the browser. */
export const PEOPLE_LIMIT = 1000;

export const teamMembersQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamMembersKey(teamId),
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db
          .from('team_members')
          .select('team_id,person_id,created_at,person:person_id(id,name,email,avatar,deleted_at)')
          .eq('team_id', teamId)
          .abortSignal(signal),
      ) as unknown as TeamMember[];
      // a deleted user keeps their membership row (history) but is no longer a member to show
      return rows
        .filter((m) => m.person && !m.person.deleted_at)
        .sort((a, b) => a.person!.name.localeCompare(b.person!.name));
    },
  });

export const useTeamMembers = (teamId: string) => useQuery(teamMembersQuery(teamId));

export function usePeople(enabled: boolean) {
  return useQuery({
    queryKey: ['people', 'pickable'],
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await db
          .from('people')
          .select('id,name,email,avatar')
          .eq('type', 'person')
          .is('deleted_at', null)
          .order('name')
          .limit(PEOPLE_LIMIT)
          .abortSignal(signal),
      ) as Person[],
  });
}

export function useAddMembers(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (personIds: string[]) => {
      unwrap(await db.from('team_members').insert(personIds.map((person_id) => ({ team_id: teamId, person_id }))));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: teamMembersKey(teamId) }),
  });
}

export function useRemoveMember(teamId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (personId: string) => {
      unwrap(await db.from('team_members').delete().eq('team_id', teamId).eq('person_id', personId));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: teamMembersKey(teamId) }),
  });
}
