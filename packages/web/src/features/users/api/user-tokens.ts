import { useQuery } from '@tanstack/react-query';
import type { AccessTokenRecord } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';

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
