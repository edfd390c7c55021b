import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';
import { refreshFeatureFlags } from './use-feature-flags.ts';

/** DELETE /api/properties/{name}; the flags are reloaded afterwards. */
export function useDeleteFeatureFlag() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiRequest(`/properties/${encodeURIComponent(name)}`, { method: 'DELETE' }),
    onSuccess: () => refreshFeatureFlags(qc),
  });
}
