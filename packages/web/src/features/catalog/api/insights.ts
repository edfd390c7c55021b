import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { db, unwrap, unwrapWithCount } from '#web/lib/api.ts';
import { INSIGHTS_PAGE_SIZE } from '../lib/constants.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigInsight } from './types.ts';

const INSIGHT_SELECT =
  'id,config_id,analysis_type,analyzer,severity,status,message,summary,source,first_observed,last_observed,config';

export interface InsightsQuery {
  configId?: string;
  /** analysis type */
  type?: string;
  severity?: string;
  analyzer?: string;
  /** a topology component: insights of the configs linked to it */
  component?: string;
  configType?: string;
  status?: string;
}

/**
 * Insights (seed 002 sections 2.5 and 7.1): config_analysis_items (or, for a component, the
 * config_analysis_by_component view), newest first, 50 a page; the next page is asked for when
 * the list scrolls near its end. Each page carries the total.
 */
export function useInsights(p: InsightsQuery) {
  return useInfiniteQuery({
    queryKey: catalogKeys.insights(p),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) => {
      let q = db
        .from(p.component ? 'config_analysis_by_component' : 'config_analysis_items')
        .select(INSIGHT_SELECT, { count: 'exact' });
      if (p.component) q = q.eq('component_id', p.component);
      if (p.configId) q = q.eq('config_id', p.configId);
      if (p.type) q = q.eq('analysis_type', p.type);
      if (p.severity) q = q.eq('severity', p.severity);
      if (p.analyzer) q = q.eq('analyzer', p.analyzer);
      if (p.configType) q = q.eq('config_type', p.configType);
      if (p.status) q = q.eq('status', p.status);
      const from = pageParam * INSIGHTS_PAGE_SIZE;
      const res = await q
        .order('last_observed', { ascending: false })
        .order('id')
        .range(from, from + INSIGHTS_PAGE_SIZE - 1)
        .abortSignal(signal);
      return unwrapWithCount(res as never) as { rows: ConfigInsight[]; total: number };
    },
    getNextPageParam: (last, pages) => (pages.length * INSIGHTS_PAGE_SIZE < last.total ? pages.length : undefined),
  });
}

/** One insight with its analysis payload (the insight detail). */
export function useInsight(id: string | undefined) {
  return useQuery({
    queryKey: [...catalogKeys.insights({ id }), 'detail'],
    enabled: !!id,
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db
          .from('config_analysis_items')
          .select(`${INSIGHT_SELECT},analysis`)
          .eq('id', id!)
          .limit(1)
          .abortSignal(signal),
      ) as ConfigInsight[];
      return rows[0] ?? null;
    },
  });
}
