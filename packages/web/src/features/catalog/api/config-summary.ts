import { useQuery } from '@tanstack/react-query';
import { apiPost } from '#web/lib/http.ts';
import { CATALOG_STALE_MS } from '../lib/constants.ts';
import { splitTriState } from '../lib/filters.ts';
import { parseTagEntry } from '../lib/format.ts';
import { catalogKeys } from './keys.ts';
import type { ConfigSummaryRow } from './types.ts';

export interface ConfigSummaryParams {
  /** the page's group-by keys: config_class, type, name, analysis, changed, tag:<key> */
  groupBy: string[];
  hideDeleted: boolean;
  /** tri-state lists as in the URL (value:1 / value:-1; labels as key____value) */
  labels?: string;
  tags?: string;
  status?: string;
  health?: string;
  agent_id?: string;
}

/** The page's group key as the summary route names it: `tag:<key>` is `tags.<key>`. */
export const summaryGroupKey = (key: string) => (key.startsWith('tag:') ? `tags.${key.slice(4)}` : key);

/**
 * The summary request of seed 002 section 7.1 (groupBy, deleted flag, filter labels, health,
 * status, changes since 30d, analysis since 30d, cost 30d) plus the page's tags and agent.
 * Included labels go in `filter` (all must hold), excluded ones as `!key____value` entries.
 */
function summaryRequest(p: ConfigSummaryParams): Record<string, unknown> {
  const { include, exclude } = splitTriState(p.labels);
  const filter: Record<string, string> = {};
  for (const entry of include) {
    const pair = parseTagEntry(entry);
    if (pair) filter[pair.key] = pair.value;
  }
  const body: Record<string, unknown> = {
    groupBy: p.groupBy.map(summaryGroupKey),
    deleted: !p.hideDeleted,
    changes: { since: '30d' },
    analysis: { since: '30d' },
    cost: '30d',
  };
  if (Object.keys(filter).length) body.filter = filter;
  if (exclude.length) body.labels = exclude.map((e) => `!${e}`);
  if (p.health) body.health = p.health;
  if (p.status) body.status = p.status;
  if (p.tags) body.tags = p.tags;
  if (p.agent_id) body.agent_id = p.agent_id;
  return body;
}

/**
 * The catalog landing summary (seed 002 sections 2.2 and 7.1): POST /api/catalog/summary groups
 * and counts on the server (health, open insights per type, 30-day changes and cost) by any of
 * the page's group-by choices, with the filters applied. Favourite types are sorted first by
 * the caller.
 */
export function useConfigSummary(p: ConfigSummaryParams, enabled = true) {
  return useQuery<ConfigSummaryRow[]>({
    queryKey: catalogKeys.summary(p),
    enabled,
    staleTime: CATALOG_STALE_MS,
    // the previous answer stays while a filter changes, not when the grouping does (its rows
    // have other keys and columns)
    placeholderData: (previous, query) =>
      (query?.queryKey[2] as ConfigSummaryParams | undefined)?.groupBy.join() === p.groupBy.join()
        ? previous
        : undefined,
    queryFn: ({ signal }) => apiPost<ConfigSummaryRow[]>('/api/catalog/summary', summaryRequest(p), { signal }),
  });
}
