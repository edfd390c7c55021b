import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import type { IncidentListRow } from './types.ts';
import { LIST_SELECT } from './selects.ts';

/**
 * The incident list (seed 001 sections 2 and 7): the incident_summary view, filtered on the
 * server by the URL's filters, paged and sorted on the server, with the total from Content-Range.
 */
export interface IncidentFilters {
  /** a status, or 'all' (the default is open) */
  status: string;
  severity?: string;
  type?: string;
  /** the creator (people id) */
  owner?: string;
  /** a topology component some evidence points at */
  component?: string;
  search?: string;
}

export interface ListPage {
  pageIndex: number;
  pageSize: number;
  sortBy: string;
  sortDesc: boolean;
}

/** Columns the list may sort by (severity and responders have no meaningful text order). */
export const SORTABLE = ['incident_id', 'title', 'type', 'status', 'created_at'] as const;

/** A PostgREST filter value, quoted so commas, dots and parentheses in a search stay text. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

export function useIncidentList(filters: IncidentFilters, page: ListPage) {
  return useQuery({
    queryKey: ['incidents', 'list', filters, page],
    queryFn: async ({ signal }) => {
      // the component filter goes through the evidence tree: !inner keeps matching incidents only
      let q = db
        .from('incident_summary')
        .select(filters.component ? `${LIST_SELECT},hypotheses!inner(evidences!inner(component_id))` : LIST_SELECT, {
          count: 'exact',
        });
      if (filters.status !== 'all') q = q.eq('status', filters.status);
      if (filters.severity) q = q.eq('severity', filters.severity);
      if (filters.type) q = q.eq('type', filters.type);
      if (filters.owner) q = q.eq('created_by', filters.owner);
      if (filters.component) q = q.eq('hypotheses.evidences.component_id', filters.component);
      const search = filters.search?.trim();
      if (search) q = q.or(`title.ilike.${quoted(`*${search}*`)},incident_id.ilike.${quoted(`*${search}*`)}`);
      const sortBy = (SORTABLE as readonly string[]).includes(page.sortBy) ? page.sortBy : 'created_at';
      q = q.order(sortBy, { ascending: !page.sortDesc });
      if (sortBy !== 'created_at') q = q.order('created_at', { ascending: false });
      const from = page.pageIndex * page.pageSize;
      return unwrapWithCount((await q.range(from, from + page.pageSize - 1).abortSignal(signal)) as never) as {
        rows: IncidentListRow[];
        total: number;
      };
    },
    placeholderData: keepPreviousData,
  });
}
