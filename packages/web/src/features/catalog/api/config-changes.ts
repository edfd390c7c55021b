import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { db, unwrap, unwrapWithCount } from '#web/lib/api.ts';
import { inList, jsonPairFilters, splitTriState } from '../lib/filters.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigChange } from './types.ts';

const CHANGE_SELECT =
  'id,config_id,change_type,summary,severity,source,tags,created_at,first_observed,count,created_by,external_created_by,name,type,config_class,deleted_at';

const CHANGES_SORTABLE = [
  'created_at',
  'first_observed',
  'count',
  'name',
  'type',
  'change_type',
  'summary',
  'severity',
  'source',
  'created_by',
] as const;

/** The arbitrary filters that show as removable chips (seed 002 section 2.4). */
export const ARBITRARY_FILTERS = ['id', 'summary', 'source', 'created_by', 'external_created_by'] as const;
export type ArbitraryFilter = (typeof ARBITRARY_FILTERS)[number];

export interface ChangesQuery {
  /** a config's own changes (and its related ones per typeFilter); none: every config */
  configId?: string;
  /** all, upstream, downstream or none (only the config's own) */
  typeFilter: 'all' | 'upstream' | 'downstream' | 'none';
  includeDeletedConfigs: boolean;
  /** tri-state lists */
  changeType?: string;
  severity?: string;
  configTypes?: string;
  tags?: string;
  from?: string;
  to?: string;
  arbitrary: Partial<Record<ArbitraryFilter, string>>;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  /** 1-based */
  page: number;
  pageSize: number;
}

/**
 * The config changes query (seed 002 section 7.1): the catalog_changes view for every config,
 * related_changes(config_id, type_filter, ...) for one; every filter on the server, paged, with
 * the total. Creators' names come from people by id.
 */
export function useConfigChanges(p: ChangesQuery) {
  return useQuery({
    queryKey: catalogKeys.changes(p),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      let q = p.configId
        ? db.rpc(
            'related_changes',
            {
              config_id: p.configId,
              type_filter: p.typeFilter,
              include_deleted_configs: p.includeDeletedConfigs,
            },
            { count: 'exact' },
          )
        : db.from('catalog_changes').select(CHANGE_SELECT, { count: 'exact' });
      if (p.configId) q = q.select(CHANGE_SELECT);
      if (!p.configId && !p.includeDeletedConfigs) q = q.is('deleted_at', null);
      for (const [column, text] of [
        ['change_type', p.changeType],
        ['severity', p.severity],
        ['type', p.configTypes],
      ] as const) {
        const { include, exclude } = splitTriState(text);
        if (include.length) q = q.in(column, include);
        if (exclude.length) q = q.or(`${column}.is.null,${column}.not.in.${inList(exclude)}`);
      }
      const { eq, notEqOr } = jsonPairFilters('tags', p.tags);
      for (const [path, value] of eq) q = q.filter(path, 'eq', value);
      for (const clause of notEqOr) q = q.or(clause);
      if (p.from) q = q.gte('created_at', p.from);
      if (p.to) q = q.lte('created_at', p.to);
      // `id` names the config (a click on a Catalog cell), the others their own column
      for (const [key, value] of Object.entries(p.arbitrary))
        if (value) q = q.eq(key === 'id' ? 'config_id' : key, value);
      const sortBy = (CHANGES_SORTABLE as readonly string[]).includes(p.sortBy) ? p.sortBy : 'created_at';
      q = q.order(sortBy, { ascending: p.sortOrder === 'asc', nullsFirst: false });
      if (sortBy !== 'created_at') q = q.order('created_at', { ascending: false });
      const from = (Math.max(p.page, 1) - 1) * p.pageSize;
      const { rows, total } = unwrapWithCount(
        (await q.range(from, from + p.pageSize - 1).abortSignal(signal)) as never,
      ) as { rows: ConfigChange[]; total: number };
      const creatorIds = [...new Set(rows.map((r) => r.created_by).filter((x): x is string => !!x))];
      if (creatorIds.length) {
        const people = unwrap(
          await db.from('people').select('id,name,email').in('id', creatorIds).abortSignal(signal),
        ) as NonNullable<ConfigChange['creator']>[];
        const byId = new Map(people.map((x) => [x.id, x]));
        for (const r of rows) r.creator = r.created_by ? (byId.get(r.created_by) ?? null) : null;
      }
      return { rows, total };
    },
  });
}

/** One change with its details, patches and diff (the change detail dialog). */
export function useChangeDetail(id: string | undefined) {
  return useQuery({
    queryKey: catalogKeys.change(id ?? ''),
    enabled: !!id,
    queryFn: async ({ signal }) => {
      const rows = unwrap(
        await db
          .from('catalog_changes')
          .select(`${CHANGE_SELECT},details,patches,diff`)
          .eq('id', id!)
          .limit(1)
          .abortSignal(signal),
      ) as ConfigChange[];
      return rows[0] ?? null;
    },
  });
}
