import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';
import { refreshFeatureFlags } from './use-feature-flags.ts';

export interface FeatureFlagInput {
  name: string;
  value: string;
  description: string;
}

/** POST /api/properties; the flags are reloaded afterwards (refreshFeatureFlags). */
export function useCreateFeatureFlag() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (f: FeatureFlagInput) => apiRequest('/properties', { method: 'POST', body: f }),
    onSuccess: () => refreshFeatureFlags(qc),
  });
}
