import { useCallback, useEffect, useRef, useState } from 'react';

/** `value`, but only after it stopped changing for `ms` (search boxes: 400 ms, seed 000 section 5). */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/**
 * A function that calls `fn` once calls stopped for `ms` (the seeds' debounced saves: severity 500
 * ms, hypothesis status 200 ms, title 1 s), with the arguments of the last call. A pending call is
 * made at once when the component unmounts, so an edit is not lost by navigating away.
 */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  const latest = useRef(fn);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; args: A } | null>(null);
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(
    () => () => {
      if (!pending.current) return;
      clearTimeout(pending.current.timer);
      latest.current(...pending.current.args);
    },
    [],
  );
  return useCallback(
    (...args: A) => {
      if (pending.current) clearTimeout(pending.current.timer);
      const timer = setTimeout(() => {
        pending.current = null;
        latest.current(...args);
      }, ms);
      pending.current = { timer, args };
    },
    [ms],
  );
}
