import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';
import { tokensKey } from './use-access-tokens.ts';

export function useRevokeAccessToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`/auth/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensKey }),
  });
}
