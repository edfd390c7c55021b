import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import type { IntegrationType } from '../types.ts';

/** A row of integrations_with_status (seed 002 section 3 "Integration list row"). */
export interface IntegrationRow {
  id: string;
  name: string;
  namespace: string | null;
  source: string | null;
  integration_type: IntegrationType;
  agent: { id: string; name: string } | null;
  job_status: string | null;
  job_details: Record<string, unknown> | null;
  job_name: string | null;
  job_time_start: string | null;
  created_by: { id: string; name: string; avatar?: string | null } | null;
  created_at: string;
  updated_at: string | null;
}

export interface IntegrationsQuery {
  search: string;
  pageIndex: number;
  pageSize: number;
  sortBy: string;
  sortDesc: boolean;
}

export const integrationsKey = ['integrations'] as const;

/**
 * GET integrations_with_status with limit, offset, order, deleted_at null, a name search and
 * Prefer count=exact (seed 000 section 7; seed 002 section 7.4).
 */
export function useIntegrations(q: IntegrationsQuery) {
  return useQuery({
    queryKey: [...integrationsKey, 'list', q],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      let req = db
        .from('integrations_with_status')
        .select('*,created_by(id,name,avatar)', { count: 'exact' })
        .is('deleted_at', null);
      const term = q.search.trim();
      if (term) req = req.ilike('name', `*${term}*`);
      const offset = q.pageIndex * q.pageSize;
      const result = await req
        .order(q.sortBy, { ascending: !q.sortDesc })
        .range(offset, offset + q.pageSize - 1)
        .abortSignal(signal);
      // Past the last page (the search narrowed the list) the engine answers 416: an empty page.
      if (result.error && result.status === 416) return { rows: [] as IntegrationRow[], total: 0 };
      return unwrapWithCount(result as never) as { rows: IntegrationRow[]; total: number };
    },
  });
}
