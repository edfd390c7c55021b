import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { RotateCw, Search } from 'lucide-react';
import {
  LOG_DEFAULT_START,
  LOG_EVIDENCE_CONTEXT_LINES,
  LOG_START_OPTIONS,
  LOGS_DEBOUNCE_MS,
  LOGS_MESSAGES,
  type LogLine,
} from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { AttachAsEvidenceButton } from '#web/components/link-to-incident/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import { useLogComponent, useLogComponents, type LogComponent } from '../api/use-log-components.ts';
import { useLogSearch } from '../api/use-log-search.ts';
import { LogTable, formatLogTime } from '../components/log-table.tsx';

/** Seed 002 section 8: the component list failed to load. */
const COMPONENTS_FAILED = 'Unable to load components!';

const START_LABELS: Record<string, string> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '3h': 'Last 3 hours',
  '6h': 'Last 6 hours',
  '12h': 'Last 12 hours',
  '1d': 'Last day',
  '2d': 'Last 2 days',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
};

function Select({
  label,
  value,
  onChange,
  children,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: React.ReactNode;
  disabled?: boolean;
}) {
  return (
    <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
      <span>{label}</span>
      <select
        aria-label={label}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass()} w-auto max-w-64 py-1`}
      >
        {children}
      </select>
    </label>
  );
}

/**
 * A source read from Kubernetes pods (its type names the backend kind), which has the previous
 * container instance to offer (POST /api/logs `previous`); other backends have no such thing.
 */
const isPodSource = (type: string | undefined) => type?.trim().toLowerCase() === 'kubernetes';

/**
 * The evidence of selected lines: the lines with LOG_EVIDENCE_CONTEXT_LINES of context on each
 * side (seed 001 section 9), and which of them were selected, as the incident page shows them.
 */
function evidenceOf(lines: readonly LogLine[], selected: ReadonlySet<number>) {
  const chosen = [...selected].sort((a, b) => a - b);
  const keep = new Set<number>();
  for (const i of chosen)
    for (
      let j = Math.max(0, i - LOG_EVIDENCE_CONTEXT_LINES);
      j <= Math.min(lines.length - 1, i + LOG_EVIDENCE_CONTEXT_LINES);
      j++
    )
      keep.add(j);
  const kept = [...keep].sort((a, b) => a - b);
  return {
    lines: kept.map((i) => ({
      timestamp: formatLogTime(lines[i].timestamp),
      message: lines[i].message,
      labels: lines[i].labels,
    })),
    selected_lines: chosen.map((i) => kept.indexOf(i)),
  };
}

/**
 * /logs (seed 001 "/logs"): query parameters topologyId, logsSelector, query (debounced 500 ms)
 * and start; a component dropdown, a selector dropdown (the component's first log source by
 * default) and a search box; the lines newest first with their labels; selected lines attach to
 * an incident as `log` evidence.
 */
export function LogsPage() {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const topologyId = params.get('topologyId') ?? '';
  const query = params.get('query') ?? '';
  const start = params.get('start') || LOG_DEFAULT_START;

  const components = useLogComponents();
  const listed = components.data?.find((c) => c.id === topologyId);
  const single = useLogComponent(topologyId && components.data && !listed ? topologyId : undefined);
  const component: LogComponent | undefined = listed ?? single.data ?? undefined;
  const sources = component?.logs ?? [];
  const selector = params.get('logsSelector') || sources[0]?.name || '';
  // ?previous=true: the previous instance of the pods' containers (Kubernetes sources only)
  const podSource = isPodSource(sources.find((s) => s.name === selector)?.type);
  const previous = podSource && params.get('previous') === 'true';

  // the search box types freely; the URL (and the search) follow 500 ms after the last key
  const [text, setText] = useState(query);
  const debounced = useDebouncedValue(text, LOGS_DEBOUNCE_MS);
  useEffect(() => {
    if (query !== debounced.trim()) update({ query: debounced.trim() || null });
    // only the typed text drives this; the URL is its output
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const search =
    component && selector
      ? { id: component.id, name: selector, query, start, ...(previous ? { previous: true } : {}) }
      : undefined;
  const result = useLogSearch(search);
  const lines = useMemo(() => result.data?.pages.flatMap((p) => p.results) ?? [], [result.data]);
  const first = result.data?.pages[0];

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const searchKey = JSON.stringify(search ?? null);
  // a new search starts with nothing selected
  const [selectedFor, setSelectedFor] = useState(searchKey);
  if (selectedFor !== searchKey) {
    setSelectedFor(searchKey);
    setSelected(new Set());
  }
  const toggle = useCallback(
    (i: number) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (next.has(i)) next.delete(i);
        else next.add(i);
        return next;
      }),
    [],
  );
  const toggleAll = () =>
    setSelected((prev) => (prev.size === lines.length ? new Set() : new Set(lines.map((_, i) => i))));
  const fetchNext = result.fetchNextPage;
  const onEndReached = useCallback(() => void fetchNext(), [fetchNext]);

  const emptyMessage = !component ? LOGS_MESSAGES.noComponent : LOGS_MESSAGES.noResults;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Logs">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="font-semibold text-gray-900">Logs</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Refresh"
          onClick={() => void result.refetch()}
          disabled={!search || result.isFetching}
        >
          <RotateCw size={15} className={result.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
      </PageTitle>

      <div className="flex flex-wrap items-center gap-3" role="search" aria-label="Log search">
        <Select
          label="Component"
          value={component ? component.id : ''}
          onChange={(id) => update({ topologyId: id || null, logsSelector: null, previous: null }, { push: true })}
        >
          <option value="">Select a component</option>
          {single.data && !listed && <option value={single.data.id}>{single.data.name}</option>}
          {components.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
        <Select
          label="Source"
          value={selector}
          disabled={!sources.length}
          onChange={(name) =>
            update(
              {
                logsSelector: name === sources[0]?.name ? null : name,
                // another source's pods are another matter: back to the running containers
                previous: null,
              },
              { push: true },
            )
          }
        >
          {!sources.length && <option value="">No log sources</option>}
          {sources.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
              {s.type ? ` (${s.type})` : ''}
            </option>
          ))}
        </Select>
        <Select
          label="Time range"
          value={start}
          onChange={(v) => update({ start: v === LOG_DEFAULT_START ? null : v }, { push: true })}
        >
          {(LOG_START_OPTIONS as readonly string[]).includes(start) ? null : <option value={start}>{start}</option>}
          {LOG_START_OPTIONS.map((o) => (
            <option key={o} value={o}>
              {START_LABELS[o] ?? o}
            </option>
          ))}
        </Select>
        {podSource && (
          <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
            <input
              type="checkbox"
              checked={previous}
              onChange={(e) => update({ previous: e.target.checked ? 'true' : null }, { push: true })}
              className="size-4 rounded border-gray-300"
            />
            Previous container
          </label>
        )}
        <div className="relative w-80 max-w-full">
          <Search
            size={15}
            className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-gray-400"
            aria-hidden
          />
          <input
            type="search"
            aria-label="Search logs"
            placeholder="Search messages"
            value={text}
            onChange={(e) => setText(e.target.value)}
            className={`${inputClass()} py-1 pl-8`}
          />
        </div>
        {first && (
          <span className="text-sm text-gray-500" data-testid="log-total">
            {first.totalRelation === 'gte' ? 'at least ' : ''}
            {first.total.toLocaleString()} {first.total === 1 ? 'line' : 'lines'}
          </span>
        )}
        {selected.size > 0 && component && (
          <div className="ml-auto flex items-center gap-2">
            <span className="text-sm text-gray-600">{selected.size} selected</span>
            <AttachAsEvidenceButton
              key={`${searchKey}:${[...selected].join(',')}`}
              target={{
                type: 'log',
                component_id: component.id,
                evidence: {
                  ...evidenceOf(lines, selected),
                  source: selector,
                  query,
                  start,
                  ...(previous ? { previous: true } : {}),
                },
              }}
              defaultDescription={`${selected.size} log ${selected.size === 1 ? 'line' : 'lines'} of ${component.name} (${selector}${previous ? ', previous container' : ''})`}
            />
          </div>
        )}
      </div>

      {components.error && <ErrorAlert error={new Error(COMPONENTS_FAILED)} />}
      {result.error ? (
        <ErrorAlert error={result.error} />
      ) : (
        <LogTable
          lines={lines}
          selected={selected}
          onToggle={toggle}
          onToggleAll={toggleAll}
          loading={!!search && result.isPending}
          loadingMore={result.isFetchingNextPage}
          hasMore={!!result.hasNextPage}
          onEndReached={onEndReached}
          emptyMessage={emptyMessage}
        />
      )}
    </div>
  );
}
