import { useState } from 'react';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { useRunAction } from '../api/use-run-action.ts';
import { AnsiText } from '../lib/ansi.tsx';
import { RunStatusBadge } from './run-status.tsx';

const TEXT_KEYS = ['stdout', 'stderr', 'logs'] as const;

function Pre({ text }: { text: string }) {
  return (
    <pre className="max-h-[60vh] overflow-auto rounded-md bg-gray-50 p-3 font-mono text-xs whitespace-pre-wrap text-gray-900 ring-1 ring-gray-200">
      <AnsiText text={text} />
    </pre>
  );
}

/**
 * The output of one action (seed 002 section 2.16): stdout, stderr, logs or the JSON result, in
 * tabs when there are several; the error; 'No result' when it has neither.
 */
export function ActionOutput({ actionId }: { actionId: string }) {
  const action = useRunAction(actionId);
  const [tab, setTab] = useState<string | undefined>();
  if (action.isPending) return <Spinner />;
  const a = action.data;
  if (!a) return <p className="text-sm text-gray-500">No result</p>;
  const result = a.result ?? {};
  const texts = TEXT_KEYS.filter((k) => typeof result[k] === 'string' && (result[k] as string).length > 0);
  const rest = Object.fromEntries(
    Object.entries(result).filter(([k]) => !(TEXT_KEYS as readonly string[]).includes(k)),
  );
  const tabs: { key: string; label: string; body: string; json?: boolean }[] = texts.map((k) => ({
    key: k,
    label: k,
    body: result[k] as string,
  }));
  if (Object.keys(rest).length)
    tabs.push({ key: 'result', label: 'result', body: JSON.stringify(rest, null, 2), json: true });
  const current = tabs.find((t) => t.key === tab) ?? tabs[0];
  return (
    <section aria-label={`Output of ${a.name}`} className="flex min-w-0 flex-col gap-2">
      <div className="flex items-center gap-2">
        <h3 className="font-medium text-gray-900">{a.name}</h3>
        <RunStatusBadge status={a.status} />
      </div>
      {a.error && (
        <pre className="rounded-md bg-red-50 p-3 font-mono text-xs whitespace-pre-wrap text-red-800 ring-1 ring-red-200">
          <AnsiText text={a.error} />
        </pre>
      )}
      {tabs.length > 1 && (
        <div role="tablist" aria-label="Output" className="flex gap-1 border-b border-gray-200">
          {tabs.map((t) => (
            <button
              key={t.key}
              type="button"
              role="tab"
              aria-selected={t === current}
              onClick={() => setTab(t.key)}
              className={cn(
                '-mb-px border-b-2 px-3 py-1.5 text-sm',
                t === current
                  ? 'border-blue-600 text-blue-700'
                  : 'border-transparent text-gray-600 hover:text-gray-900',
              )}
            >
              {t.label}
            </button>
          ))}
        </div>
      )}
      {current ? <Pre text={current.body} /> : !a.error && <p className="text-sm text-gray-500">No result</p>}
    </section>
  );
}
