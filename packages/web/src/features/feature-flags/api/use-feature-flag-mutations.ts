import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/http.ts';
import { propertiesQuery } from '../../../lib/session.tsx';
import { featureFlagsKey } from './use-feature-flags.ts';

export interface FeatureFlagInput {
  name: string;
  value: string;
  description: string;
}

/**
 * POST /api/properties, PATCH and DELETE /api/properties/{name}. The session's flags are
 * reloaded afterwards, so a feature switched off disappears from the app at once.
 */
export function useFeatureFlagMutations() {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: featureFlagsKey });
    void qc.invalidateQueries({ queryKey: propertiesQuery.queryKey });
  };
  const path = (name: string) => `/properties/${encodeURIComponent(name)}`;
  const create = useMutation({
    mutationFn: (f: FeatureFlagInput) => apiRequest('/properties', { method: 'POST', body: f }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: (f: FeatureFlagInput) =>
      apiRequest(path(f.name), { method: 'PATCH', body: { value: f.value, description: f.description } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (name: string) => apiRequest(path(name), { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { create, update, remove };
}
