import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccessTokenRecord, EditUserInput, InviteUserInput, UserRecord } from '@watchdeck/core';
import { apiRequest } from '../../../lib/http.ts';

/**
 * The users page's calls (seed 002 section 7.8): list, invite (returns a link), update, delete.
 * They go to the auth routes rather than /api/db because inviting creates an identity and a
 * sign-in link, and a role change must be checked against "at least one admin remains"
 * (packages/server/src/auth/users.ts).
 */

export interface UsersPage {
  data: UserRecord[];
  totalEntries: number;
}

export const usersKeys = {
  all: ['users'] as const,
  list: (pageIndex: number, pageSize: number) => ['users', 'list', pageIndex, pageSize] as const,
};

export const usersQuery = (pageIndex: number, pageSize: number) =>
  queryOptions({
    queryKey: usersKeys.list(pageIndex, pageSize),
    queryFn: ({ signal }) =>
      apiRequest<UsersPage>(`/auth/users?pageIndex=${pageIndex}&pageSize=${pageSize}`, { signal }),
  });

export function useUsers(pageIndex: number, pageSize: number) {
  // keep the current page on screen while the next one loads
  return useQuery({ ...usersQuery(pageIndex, pageSize), placeholderData: keepPreviousData });
}

/** POST /api/auth/invite_user -> {id, link}: the link signs the invitee in to choose a password. */
export function useInviteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteUserInput) =>
      apiRequest<{ id: string; link: string }>('/auth/invite_user', { method: 'POST', body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: Partial<EditUserInput> & { id: string }) =>
      apiRequest<UserRecord>(`/auth/users/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`/auth/users/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

export const fullName = (u: Pick<UserRecord, 'name'>) => `${u.name.first} ${u.name.last}`.trim();

/**
 * An administrator's view of one user's personal access tokens (GET/DELETE
 * /api/auth/users/:id/tokens): names, roles and dates, never the token values.
 */
export const userTokensKey = (id: string) => ['users', 'tokens', id] as const;

export function useUserTokens(id: string) {
  return useQuery({
    queryKey: userTokensKey(id),
    queryFn: ({ signal }) =>
      apiRequest<AccessTokenRecord[]>(`/auth/users/${encodeURIComponent(id)}/tokens`, { signal }),
  });
}

export function useRevokeUserToken(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      apiRequest<void>(`/auth/users/${encodeURIComponent(id)}/tokens/${encodeURIComponent(tokenId)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: userTokensKey(id) }),
  });
}
