/**
 * Filters, pagination and sorting live in the URL (DESIGN section 1). These hooks read and write
 * search parameters; writes keep every other parameter and replace the history entry unless told.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, decodeTriState, encodeTriState, type TriStateMap } from '@watchdeck/core';

type ParamValue = string | number | boolean | null | undefined;
export type ParamUpdates = Record<string, ParamValue>;

export interface UpdateOptions {
  /** Push a history entry instead of replacing the current one. */
  push?: boolean;
  /** Also drop the page index (a filter, sort or time range changed). */
  resetPage?: boolean;
}

const PAGE_INDEX_PARAM = 'pageIndex';
const PAGE_SIZE_PARAM = 'pageSize';

/** Applies updates to a copy of params: null, undefined and '' remove a key. */
function applyParamUpdates(params: URLSearchParams, updates: ParamUpdates, opts: UpdateOptions = {}) {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(updates)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  if (opts.resetPage && !(PAGE_INDEX_PARAM in updates)) next.delete(PAGE_INDEX_PARAM);
  return next;
}

export function useUpdateSearchParams() {
  const [, setParams] = useSearchParams();
  return useCallback(
    (updates: ParamUpdates, opts: UpdateOptions = {}) =>
      setParams((prev) => applyParamUpdates(prev, updates, opts), { replace: !opts.push }),
    [setParams],
  );
}

/** One string parameter with a default. Setting the default (or null) removes it from the URL. */
export function useSearchParamState(
  key: string,
  defaultValue = '',
): [string, (v: string | null, opts?: UpdateOptions) => void] {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const value = params.get(key) ?? defaultValue;
  const set = useCallback(
    (v: string | null, opts?: UpdateOptions) => update({ [key]: v === defaultValue ? null : v }, opts),
    [update, key, defaultValue],
  );
  return [value, set];
}

export interface PaginationParams {
  pageIndex: number;
  pageSize: number;
}

function nonNegativeInt(text: string | null, fallback: number): number {
  if (text === null) return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** pageIndex (0-based, default 0) and pageSize (default 50) in the URL. */
export function usePaginationParams({
  defaultPageSize = DEFAULT_PAGE_SIZE,
  pageIndexKey = PAGE_INDEX_PARAM,
  pageSizeKey = PAGE_SIZE_PARAM,
}: { defaultPageSize?: number; pageIndexKey?: string; pageSizeKey?: string } = {}) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const pageIndex = nonNegativeInt(params.get(pageIndexKey), 0);
  const pageSize = nonNegativeInt(params.get(pageSizeKey), defaultPageSize) || defaultPageSize;
  const setPagination = useCallback(
    (next: PaginationParams) =>
      update({
        [pageIndexKey]: next.pageIndex > 0 ? next.pageIndex : null,
        [pageSizeKey]: next.pageSize !== defaultPageSize ? next.pageSize : null,
      }),
    [update, pageIndexKey, pageSizeKey, defaultPageSize],
  );
  return { pageIndex, pageSize, setPagination };
}

export interface SortParam {
  id: string;
  desc: boolean;
}

/**
 * Single-column sorting in the URL: sortBy plus sortOrder (asc|desc) by default; pass
 * `sortDescKey` for screens that use a boolean (the health dashboard's sortDesc).
 */
export function useSortingParams({
  sortByKey = 'sortBy',
  sortOrderKey = 'sortOrder',
  sortDescKey,
  defaultSort,
}: { sortByKey?: string; sortOrderKey?: string; sortDescKey?: string; defaultSort?: SortParam } = {}) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const id = params.get(sortByKey);
  const desc = sortDescKey ? params.get(sortDescKey) === 'true' : params.get(sortOrderKey) === 'desc';
  const sortById = id ?? defaultSort?.id;
  const sortDesc = id ? desc : (defaultSort?.desc ?? false);
  const sorting = useMemo<SortParam[]>(
    () => (sortById ? [{ id: sortById, desc: sortDesc }] : []),
    [sortById, sortDesc],
  );
  const setSorting = useCallback(
    (next: SortParam[]) => {
      const first = next[0];
      const orderUpdate = sortDescKey
        ? { [sortDescKey]: first ? String(first.desc) : null }
        : { [sortOrderKey]: first ? (first.desc ? 'desc' : 'asc') : null };
      update({ [sortByKey]: first?.id ?? null, ...orderUpdate }, { resetPage: true });
    },
    [update, sortByKey, sortOrderKey, sortDescKey],
  );
  return { sorting, setSorting };
}

/** A tri-state filter (value:1 include, value:-1 exclude) in one URL parameter. */
export function useTriStateParam(key: string): [TriStateMap, (next: TriStateMap) => void] {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const raw = params.get(key);
  const value = useMemo(() => decodeTriState(raw), [raw]);
  const set = useCallback(
    (next: TriStateMap) => update({ [key]: encodeTriState(next) || null }, { resetPage: true }),
    [update, key],
  );
  return [value, set];
}
