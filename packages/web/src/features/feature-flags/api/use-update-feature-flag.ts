import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';
import { refreshFeatureFlags } from './use-feature-flags.ts';
import type { FeatureFlagInput } from './use-create-feature-flag.ts';

/** PATCH /api/properties/{name} (value, description); the flags are reloaded afterwards. */
export function useUpdateFeatureFlag() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (f: FeatureFlagInput) =>
      apiRequest(`/properties/${encodeURIComponent(f.name)}`, {
        method: 'PATCH',
        body: { value: f.value, description: f.description },
      }),
    onSuccess: () => refreshFeatureFlags(qc),
  });
}
