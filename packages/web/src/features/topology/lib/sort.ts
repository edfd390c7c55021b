import { useSearchParams } from 'react-router';
import { useLocalStorage } from '#web/lib/storage.ts';
import { STORAGE_KEYS } from './constants.ts';

/** Seed 002 section 2.7: Health, Name, Type, Last Updated, plus headline properties. */
export const STANDARD_SORTS = [
  { value: 'status', label: 'Health' },
  { value: 'name', label: 'Name' },
  { value: 'type', label: 'Type' },
  { value: 'updated_at', label: 'Last Updated' },
] as const;

const isStandard = (v: string) => STANDARD_SORTS.some((s) => s.value === v);

export interface TopologySort {
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  setSort: (sortBy: string, sortOrder: 'asc' | 'desc') => void;
}

/**
 * The sort: from the URL, else the stored choice (topologyCardsSortByStandard, or
 * topologyCardsSortByCustom for a headline property; topologyCardsSortOrder, default asc), else
 * health. A choice is stored and put in the URL, except health descending, which clears the
 * sort parameters (seed 002 section 2.7).
 */
export function useTopologySort(): TopologySort {
  const [params, setParams] = useSearchParams();
  const [standard, setStandard] = useLocalStorage<string | undefined>(STORAGE_KEYS.sortByStandard, undefined);
  const [custom, setCustom] = useLocalStorage<string | undefined>(STORAGE_KEYS.sortByCustom, undefined);
  const [order, setOrder] = useLocalStorage<'asc' | 'desc'>(STORAGE_KEYS.sortOrder, 'asc');
  const urlOrder = params.get('sortOrder');
  const sortBy = params.get('sortBy') || custom || standard || 'status';
  const sortOrder: 'asc' | 'desc' = urlOrder === 'asc' || urlOrder === 'desc' ? urlOrder : order;
  return {
    sortBy,
    sortOrder,
    setSort: (by, dir) => {
      if (isStandard(by)) {
        setStandard(by);
        setCustom(undefined);
      } else setCustom(by);
      setOrder(dir);
      setParams(
        () => {
          // the address bar, not the hook's last render: a second choice made before the page
          // re-rendered after the first would otherwise drop the first (react-router's prev is stale)
          const next = new URLSearchParams(window.location.search);
          if (by === 'status' && dir === 'desc') {
            next.delete('sortBy');
            next.delete('sortOrder');
          } else {
            next.set('sortBy', by);
            next.set('sortOrder', dir);
          }
          return next;
        },
        { replace: true },
      );
    },
  };
}
