/**
 * Team membership through /api/db (seed 000 section 7: team_members with the person embedded,
 * POST an array of {team_id, person_id}, DELETE by person). Both tables belong to the 'database'
 * resource: everyone reads them, admins and editors change them.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

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

const teamMembersQuery = (teamId: string) =>
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
