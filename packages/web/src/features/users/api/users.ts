/**
 * The users page's calls (seed 002 section 7.8): list, invite (returns a link), update, delete.
 * They go to the auth routes rather than /api/db because inviting creates an identity and a
 * sign-in link, and a role change must be checked against "at least one admin remains"
 * (packages/server/src/auth/users.ts).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UserRecord } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';

export interface UsersPage {
  data: UserRecord[];
  totalEntries: number;
}

export const usersKeys = {
  all: ['users'] as const,
  list: (pageIndex: number, pageSize: number) => ['users', 'list', pageIndex, pageSize] as const,
};

const usersQuery = (pageIndex: number, pageSize: number) =>
  queryOptions({
    queryKey: usersKeys.list(pageIndex, pageSize),
    queryFn: ({ signal }) =>
      apiRequest<UsersPage>(`/auth/users?pageIndex=${pageIndex}&pageSize=${pageSize}`, { signal }),
  });

export function useUsers(pageIndex: number, pageSize: number) {
  // keep the current page on screen while the next one loads
  return useQuery({ ...usersQuery(pageIndex, pageSize), placeholderData: keepPreviousData });
}
