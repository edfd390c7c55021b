import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';
import { userTokensKey } from './user-tokens.ts';

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
