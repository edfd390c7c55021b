import { useQueryClient } from '@tanstack/react-query';
import { integrationsKey } from './use-integrations.ts';

export function useRefreshIntegrations() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: integrationsKey });
}
