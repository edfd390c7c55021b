import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { TriStateMap } from '@watchdeck/core';
import { useUpdateSearchParams, type UpdateOptions } from '#web/lib/url-state.ts';
import { decodeLabelsParam, encodeLabelsParam } from './filters.ts';
import { ALL_TAB, DEFAULT_GROUP_BY, DEFAULT_TAB_BY } from './grouping.ts';
import { DEFAULT_HEALTH_TIME_RANGE, isHealthTimeRange, type HealthTimeRange } from './time-ranges.ts';

export type HealthLayout = 'table' | 'card';
export type PivotCellType = 'checkStatus' | 'uptime' | 'latency';

/**
 * The /health query parameters (seed 000): timeRange, layout, checkId, labels, query, pivotBy,
 * pivotLabel, pivotCellType, sortBy, sortDesc, groupBy, tab; plus hidePassing and tabBy so the
 * Hide Passing toggle and the Tab By choice survive a reload and can be linked to. Defaults are
 * left out of the URL.
 */
export interface HealthParams {
  timeRange: HealthTimeRange;
  layout: HealthLayout;
  checkId: string | undefined;
  labels: TriStateMap;
  query: string;
  pivotBy: string | undefined;
  pivotLabel: string | undefined;
  pivotCellType: PivotCellType;
  sortBy: string | undefined;
  sortDesc: boolean;
  groupBy: string;
  tab: string;
  tabBy: string;
  hidePassing: boolean;
}

const PIVOT_CELL_TYPES: readonly PivotCellType[] = ['checkStatus', 'uptime', 'latency'];

export function readHealthParams(p: URLSearchParams): HealthParams {
  const timeRange = p.get('timeRange');
  const cell = p.get('pivotCellType') as PivotCellType | null;
  return {
    timeRange: isHealthTimeRange(timeRange) ? timeRange : DEFAULT_HEALTH_TIME_RANGE,
    layout: p.get('layout') === 'card' ? 'card' : 'table',
    checkId: p.get('checkId') || undefined,
    labels: decodeLabelsParam(p.get('labels')),
    query: p.get('query') ?? '',
    pivotBy: p.get('pivotBy') || undefined,
    pivotLabel: p.get('pivotLabel') || undefined,
    pivotCellType: cell && PIVOT_CELL_TYPES.includes(cell) ? cell : 'checkStatus',
    sortBy: p.get('sortBy') || undefined,
    sortDesc: p.get('sortDesc') === 'true',
    groupBy: p.get('groupBy') || DEFAULT_GROUP_BY,
    tab: p.get('tab') || ALL_TAB,
    tabBy: p.get('tabBy') || DEFAULT_TAB_BY,
    hidePassing: p.get('hidePassing') !== 'false',
  };
}

export function useHealthParams() {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const key = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read only when the query string changes
  const values = useMemo(() => readHealthParams(params), [key]);

  const set = useCallback(
    (changes: Partial<HealthParams>, opts?: UpdateOptions) => {
      const out: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(changes) as [keyof HealthParams, unknown][]) {
        switch (k) {
          case 'labels':
            out.labels = encodeLabelsParam(v as TriStateMap);
            break;
          case 'timeRange':
            out.timeRange = v === DEFAULT_HEALTH_TIME_RANGE ? null : (v as string);
            break;
          case 'layout':
            out.layout = v === 'table' ? null : (v as string);
            break;
          case 'groupBy':
            out.groupBy = v === DEFAULT_GROUP_BY ? null : (v as string);
            break;
          case 'tabBy':
            out.tabBy = v === DEFAULT_TAB_BY ? null : (v as string);
            break;
          case 'tab':
            out.tab = v === ALL_TAB ? null : (v as string);
            break;
          case 'hidePassing':
            out.hidePassing = v ? null : 'false';
            break;
          case 'sortDesc':
            out.sortDesc = v ? 'true' : null;
            break;
          case 'pivotCellType':
            out.pivotCellType = v === 'checkStatus' ? null : (v as string);
            break;
          default:
            out[k] = v === undefined || v === null || v === '' ? null : String(v);
        }
      }
      update(out, opts);
    },
    [update],
  );
  return [values, set] as const;
}
