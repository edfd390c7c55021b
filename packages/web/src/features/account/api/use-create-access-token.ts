import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';
import { type AccessToken, tokensKey } from './use-access-tokens.ts';

export interface CreatedAccessToken extends AccessToken {
  token: string;
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
