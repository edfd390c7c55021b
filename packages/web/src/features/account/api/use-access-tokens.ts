import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessTokenRecord } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';

/**
 * The signed-in person's personal access tokens (server: auth/tokens.ts). The list never holds a
 * token's value: the server keeps only its hash and returns the value once, from create.
 */
export type AccessToken = AccessTokenRecord;

export const tokensKey = ['auth', 'tokens'] as const;

const accessTokensQuery = () =>
  queryOptions({
    queryKey: tokensKey,
    queryFn: ({ signal }) => apiRequest<AccessToken[]>('/auth/tokens', { signal }),
  });

export function useAccessTokens() {
  return useQuery(accessTokensQuery());
}
