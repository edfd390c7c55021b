import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import {
  TIME_RANGE_PARAMS,
  clearedTimeRangeParams,
  timeRangeFromParams,
  timeRangeToParams,
  type TimeRange,
} from './time-range.ts';

/**
 * The time range in the URL. Choosing one writes it and resets pagination; clearing removes
 * every time parameter (and the page index).
 */
export function useTimeRangeParams({ defaultRange, prefix = '' }: { defaultRange?: TimeRange; prefix?: string } = {}) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const key = TIME_RANGE_PARAMS.map((k) => params.get(prefix + k) ?? '').join('\u0000');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed only when a time parameter changes
  const fromUrl = useMemo(() => timeRangeFromParams(params, prefix), [key, prefix]);
  const range = fromUrl ?? defaultRange;
  const setRange = useCallback(
    (next: TimeRange) => update(timeRangeToParams(next, prefix), { resetPage: true, push: true }),
    [update, prefix],
  );
  const clear = useCallback(
    () => update(clearedTimeRangeParams(prefix), { resetPage: true, push: true }),
    [update, prefix],
  );
  return { range, isDefault: !fromUrl, setRange, clear };
}
