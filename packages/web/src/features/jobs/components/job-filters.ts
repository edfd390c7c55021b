import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { decodeTriState, encodeTriState, type TriStateMap } from '@watchdeck/core';
import { pastRange } from '#web/components/time-range/index.ts';

/** Job history defaults (seed 002 section 9). */
export const JOBS_DEFAULT_RANGE = pastRange('2d');
export const JOBS_PAGE_SIZE = 50;
const JOBS_DEFAULT_STATUS = 'SUCCESS:-1';
export const JOBS_DEFAULT_SORT = { id: 'created_at', desc: true };

/** Minimum run durations offered by the duration filter (runDuration, in milliseconds). */
export const RUN_DURATION_OPTIONS = [
  { value: '', label: 'Any duration' },
  { value: '1000', label: '≥ 1s' },
  { value: '5000', label: '≥ 5s' },
  { value: '10000', label: '≥ 10s' },
  { value: '30000', label: '≥ 30s' },
  { value: '60000', label: '≥ 1m' },
  { value: '300000', label: '≥ 5m' },
  { value: '900000', label: '≥ 15m' },
] as const;

/**
 * The Status filter in the URL. Without a `status` parameter the default applies (SUCCESS
 * excluded); clearing every choice writes `status=` so "no status filter" survives a reload.
 */
export function useJobStatusParam(): [TriStateMap, (next: TriStateMap) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const value = useMemo(() => decodeTriState(raw ?? JOBS_DEFAULT_STATUS), [raw]);
  const set = useCallback(
    (next: TriStateMap) =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          const encoded = encodeTriState(next);
          if (encoded === JOBS_DEFAULT_STATUS) p.delete('status');
          else p.set('status', encoded);
          p.delete('pageIndex');
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [value, set];
}
