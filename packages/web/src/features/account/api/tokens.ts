import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/http.ts';

/**
 * The signed-in person's personal access tokens (server: auth/tokens.ts). The list never holds a
 * token's value: the server keeps only its hash and returns the value once, from create.
 */
export interface AccessToken {
  id: string;
  name: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

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

/** `expires_in`: a duration such as '30d', or null for a token that does not expire. */
export function useCreateAccessToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; expires_in: string | null }) =>
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
