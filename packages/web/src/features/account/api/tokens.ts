import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccessTokenRecord, Role } from '@watchdeck/core';
import { apiRequest } from '../../../lib/http.ts';

/**
 * The signed-in person's personal access tokens (server: auth/tokens.ts). The list never holds a
 * token's value: the server keeps only its hash and returns the value once, from create.
 */
export type AccessToken = AccessTokenRecord;

export interface CreatedAccessToken extends AccessToken {
  token: string;
}

const tokensKey = ['auth', 'tokens'] as const;

export const accessTokensQuery = () =>
  queryOptions({
    queryKey: tokensKey,
    queryFn: ({ signal }) => apiRequest<AccessToken[]>('/auth/tokens', { signal }),
  });

export function useAccessTokens() {
  return useQuery(accessTokensQuery());
}

/**
 * `expires_in`: a duration such as '30d', or null for a token that does not expire. `role`: the
 * role the token acts with (no higher than the caller's), or null for the caller's own roles.
 */
export function useCreateAccessToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; expires_in: string | null; role: Role | null }) =>
      apiRequest<CreatedAccessToken>('/auth/tokens', { method: 'POST', body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeAccessToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`/auth/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensKey }),
  });
}
