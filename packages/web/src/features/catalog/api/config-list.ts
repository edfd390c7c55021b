import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrapWithCount } from '#web/lib/api.ts';
import { CATALOG_STALE_MS } from '../lib/constants.ts';
import { inList, jsonPairFilters, quoted, splitTriState } from '../lib/filters.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigListRow } from './types.ts';

const LIST_SELECT =
  'id,type,config_class,status,health,labels,name,tags,created_at,updated_at,deleted_at,cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis,agent:agents(id,name)';

/** Columns the server sorts by; anything else falls back to the default (type). */
const LIST_SORTABLE = [
  'name',
  'type',
  'status',
  'health',
  'changes',
  'cost_total_30d',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

export interface ConfigListParams {
  configType?: string;
  search?: string;
  /** tri-state lists (value:1 / value:-1) */
  status?: string;
  health?: string;
  labels?: string;
  tags?: string;
  /** the agent whose items to list (the Agent filter) */
  agent_id?: string;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  hideDeleted: boolean;
  pageIndex: number;
  pageSize: number;
}

/**
 * GET configs (seed 002 section 7.1): type equals; status and health as include/exclude lists;
 * search over name, type, description and namespace; labels and tags by key equals value (or,
 * excluded, differs or is missing); type sorts by type then name; deleted hidden by preference;
 * paged on the server with the total from Content-Range.
 */
export function useConfigList(p: ConfigListParams, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.list(p),
    enabled,
    staleTime: CATALOG_STALE_MS,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      let q = db.from('configs').select(LIST_SELECT, { count: 'exact' });
      if (p.configType) q = q.eq('type', p.configType);
      if (p.agent_id) q = q.eq('agent_id', p.agent_id);
      for (const [column, text] of [
        ['status', p.status],
        ['health', p.health],
      ] as const) {
        const { include, exclude } = splitTriState(text);
        if (include.length) q = q.in(column, include);
        if (exclude.length) q = q.or(`${column}.is.null,${column}.not.in.${inList(exclude)}`);
      }
      const search = p.search?.trim();
      if (search) {
        const like = quoted(`*${search}*`);
        q = q.or(`name.ilike.${like},type.ilike.${like},description.ilike.${like},namespace.ilike.${like}`);
      }
      for (const [column, text] of [
        ['labels', p.labels],
        ['tags', p.tags],
      ] as const) {
        const { eq, notEqOr } = jsonPairFilters(column, text);
        for (const [path, value] of eq) q = q.filter(path, 'eq', value);
        for (const clause of notEqOr) q = q.or(clause);
      }
      if (p.hideDeleted) q = q.is('deleted_at', null);
      const sortBy = (LIST_SORTABLE as readonly string[]).includes(p.sortBy) ? p.sortBy : 'type';
      q = q.order(sortBy, { ascending: p.sortOrder !== 'desc', nullsFirst: false });
      if (sortBy !== 'name') q = q.order('name', { ascending: true });
      const from = p.pageIndex * p.pageSize;
      const { rows, total } = unwrapWithCount(
        (await q.range(from, from + p.pageSize - 1).abortSignal(signal)) as never,
      ) as { rows: ConfigListRow[]; total: number };
      return { rows, total };
    },
  });
}
