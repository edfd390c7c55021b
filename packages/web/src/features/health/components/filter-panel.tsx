import { useId, useMemo } from 'react';
import * as Switch from '@radix-ui/react-switch';
import type { TriStateMap } from '@watchdeck/core';
import { TriStateFilter } from '#web/components/filters/index.ts';
import { cn } from '#web/lib/cn.ts';
import { splitLabelId, type LabelOption } from '../lib/filters.ts';

/**
 * The left filter panel (seed 000): Filter by Health with the Hide Passing toggle (on by
 * default) and Filter by Label, one tri-state dropdown per label key: each value can be
 * included, excluded or left alone.
 */
export function FilterPanel({
  hidePassing,
  onHidePassingChange,
  labelOptions,
  labels,
  onLabelsChange,
}: {
  hidePassing: boolean;
  onHidePassingChange: (v: boolean) => void;
  labelOptions: readonly LabelOption[];
  labels: TriStateMap;
  onLabelsChange: (next: TriStateMap) => void;
}) {
  const switchId = useId();
  const byKey = useMemo(() => {
    const map = new Map<string, LabelOption[]>();
    for (const o of labelOptions) {
      const list = map.get(o.key);
      if (list) list.push(o);
      else map.set(o.key, [o]);
    }
    // selected labels stay listed even when no check in range carries them any more
    for (const id of Object.keys(labels)) {
      const [key, value] = splitLabelId(id);
      const list = map.get(key) ?? [];
      if (!list.some((o) => o.id === id)) list.push({ id, key, value, count: 0 });
      map.set(key, list);
    }
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [labelOptions, labels]);

  const setKey = (key: string, next: TriStateMap) => {
    const out: TriStateMap = {};
    for (const [id, state] of Object.entries(labels)) if (splitLabelId(id)[0] !== key) out[id] = state;
    onLabelsChange({ ...out, ...next });
  };

  return (
    <aside className="flex w-full flex-col gap-5 xl:w-60 xl:shrink-0" aria-label="Filters">
      <section>
        <h2 className="mb-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">Filter by Health</h2>
        <div className="flex items-center justify-between rounded-md border border-gray-200 bg-white px-3 py-2">
          <label htmlFor={switchId} className="text-sm text-gray-700">
            Hide Passing
          </label>
          <Switch.Root
            id={switchId}
            checked={hidePassing}
            onCheckedChange={onHidePassingChange}
            className={cn(
              'relative h-5 w-9 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
              hidePassing ? 'bg-blue-600' : 'bg-gray-300',
            )}
          >
            <Switch.Thumb className="block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
          </Switch.Root>
        </div>
      </section>
      <section>
        <h2 className="mb-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">Filter by Label</h2>
        {byKey.length === 0 ? (
          <p className="text-sm text-gray-400">No labels</p>
        ) : (
          <div className="flex flex-wrap gap-2 xl:flex-col" data-testid="label-filters">
            {byKey.map(([key, options]) => {
              const value: TriStateMap = {};
              for (const o of options) if (labels[o.id]) value[o.id] = labels[o.id];
              return (
                <TriStateFilter
                  key={key}
                  label={key}
                  className="xl:w-full xl:justify-between"
                  options={options.map((o) => ({ value: o.id, label: `${o.value}${o.count ? ` (${o.count})` : ''}` }))}
                  value={value}
                  onChange={(next) => setKey(key, next)}
                />
              );
            })}
          </div>
        )}
      </section>
    </aside>
  );
}
