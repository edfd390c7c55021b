import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { cn } from '#web/lib/cn.ts';
import { sortKeys } from '../lib/format.ts';

/** The body's text: JSON sorted by key (default) or as stored; text formats as they are. */
function bodyText(config: unknown, raw: boolean): string {
  if (typeof config === 'string') return config;
  if (config === null || config === undefined) return '';
  return JSON.stringify(raw ? config : sortKeys(config), null, 2);
}

/**
 * The Config tab (seed 002 section 2.3): the body sorted by key or raw, in its format (json by
 * default), with line numbers; clicking a line number selects it, and the selection lives in the
 * URL as repeated `selected` parameters so a link shows the same lines.
 */
export function ConfigBody({ config, format }: { config: unknown; format: string | null }) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('view') === 'raw';
  const lines = useMemo(() => bodyText(config, raw).split('\n'), [config, raw]);
  const selected = new Set(params.getAll('selected'));

  const toggleLine = (n: number) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        const current = next.getAll('selected');
        next.delete('selected');
        const key = String(n);
        const list = current.includes(key) ? current.filter((x) => x !== key) : [...current, key];
        for (const x of list.sort((a, b) => Number(a) - Number(b))) next.append('selected', x);
        return next;
      },
      { replace: true },
    );
  const setRaw = (v: boolean) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (v) next.set('view', 'raw');
        else next.delete('view');
        next.delete('selected');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex items-center gap-2 text-sm">
        <span
          role="radiogroup"
          aria-label="Config view"
          className="inline-flex overflow-hidden rounded-md border border-gray-300"
        >
          {(
            [
              [false, 'Sorted'],
              [true, 'Raw'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={label}
              type="button"
              role="radio"
              aria-checked={raw === value}
              onClick={() => setRaw(value)}
              className={cn(
                'px-2.5 py-1',
                raw === value ? 'bg-blue-600 text-white' : 'bg-white text-gray-700 hover:bg-gray-50',
              )}
            >
              {label}
            </button>
          ))}
        </span>
        <span className="text-xs text-gray-500 uppercase">{format || 'json'}</span>
        {selected.size > 0 && <span className="text-xs text-gray-500">{selected.size} selected</span>}
      </div>
      <div
        className="min-h-0 flex-1 overflow-auto rounded-lg border border-gray-200 bg-white"
        aria-label="Config body"
        role="region"
      >
        <table className="w-full border-collapse font-mono text-xs leading-5">
          <tbody>
            {lines.map((text, i) => {
              const n = i + 1;
              const on = selected.has(String(n));
              return (
                <tr key={n} data-line={n} data-selected={on || undefined} className={cn(on && 'bg-yellow-100')}>
                  <td className="w-12 border-r border-gray-100 pr-2 text-right align-top text-gray-400 select-none">
                    <button
                      type="button"
                      aria-label={`Line ${n}`}
                      aria-pressed={on}
                      onClick={() => toggleLine(n)}
                      className="w-full text-right hover:text-blue-700"
                    >
                      {n}
                    </button>
                  </td>
                  <td className="px-3 whitespace-pre text-gray-800">{text}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
