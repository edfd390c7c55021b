import { useMemo } from 'react';
import { NO_DATA_MESSAGE } from '#web/components/data-table/index.ts';
import { formatDuration, formatRelative } from '#web/lib/format.ts';
import { cn } from '#web/lib/cn.ts';
import type { CheckSummary } from '../api/types.ts';
import { NO_GROUPING, groupValue } from '../lib/grouping.ts';
import { HEALTH_DOT_CLASS, formatPercent, headlineLatency, healthColour, uptimePercent } from '../lib/status.ts';
import { CheckIcon } from './check-icon.tsx';

/** Cards render every check; past this many the table (virtual) is the better layout. */
const CARD_LIMIT = 1000;

function CheckCard({ check, selected, onOpen }: { check: CheckSummary; selected: boolean; onOpen: () => void }) {
  const colour = healthColour(check.status);
  const latency = headlineLatency(check);
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="check-card"
      data-health={check.status ?? 'unknown'}
      className={cn(
        'flex flex-col gap-2 rounded-lg border bg-white p-3 text-left shadow-sm transition-colors hover:border-blue-300 focus-visible:outline-2 focus-visible:outline-blue-600',
        selected ? 'border-blue-400 ring-1 ring-blue-300' : 'border-gray-200',
      )}
    >
      <span className="flex min-w-0 items-center gap-2">
        <span className={cn('h-2.5 w-2.5 shrink-0 rounded-full', HEALTH_DOT_CLASS[colour])} aria-hidden />
        <CheckIcon icon={check.icon} type={check.type} />
        <span className="truncate text-sm font-medium text-gray-900">{check.name}</span>
      </span>
      {check.endpoint && <span className="truncate text-xs text-gray-500">{check.endpoint}</span>}
      <span className="grid grid-cols-3 gap-2 text-xs">
        <span>
          <span className="block text-gray-400">Uptime</span>
          {/* cards show uptime to two decimals (seed 000 section 9) */}
          <span className="font-medium text-gray-800 tabular-nums">
            {formatPercent(uptimePercent(check.uptime), 2)}
          </span>
        </span>
        <span>
          <span className="block text-gray-400">Latency</span>
          <span className="font-medium text-gray-800 tabular-nums">
            {latency === undefined ? '—' : formatDuration(latency)}
          </span>
        </span>
        <span>
          <span className="block text-gray-400">Transition</span>
          <span className="text-gray-700">{formatRelative(check.last_transition_time) || '—'}</span>
        </span>
      </span>
    </button>
  );
}

/** The card layout: cards in sections per group (or one grid without grouping). */
export function ChecksCards({
  checks,
  groupBy,
  selectedId,
  onOpen,
}: {
  checks: readonly CheckSummary[];
  groupBy: string;
  selectedId?: string;
  onOpen: (check: CheckSummary) => void;
}) {
  const shown = checks.slice(0, CARD_LIMIT);
  const groups = useMemo(() => {
    const map = new Map<string, CheckSummary[]>();
    for (const c of shown) {
      const key = groupBy === NO_GROUPING ? '' : groupValue(c, groupBy);
      const list = map.get(key);
      if (list) list.push(c);
      else map.set(key, [c]);
    }
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [shown, groupBy]);
  if (!checks.length) {
    return (
      <p className="rounded-lg border border-gray-200 bg-white py-12 text-center text-sm text-gray-500">
        {NO_DATA_MESSAGE}
      </p>
    );
  }
  return (
    <div className="space-y-5" data-testid="check-cards">
      {groups.map(([name, list]) => (
        <section key={name} aria-label={groupBy === NO_GROUPING ? 'Checks' : name || '(none)'}>
          {groupBy !== NO_GROUPING && (
            <h3 className="mb-2 text-sm font-semibold text-gray-700">
              {name || '(none)'} <span className="font-normal text-gray-400">({list.length})</span>
            </h3>
          )}
          <div className="grid grid-cols-[repeat(auto-fill,minmax(16rem,1fr))] gap-3">
            {list.map((c) => (
              <CheckCard key={c.id} check={c} selected={c.id === selectedId} onOpen={() => onOpen(c)} />
            ))}
          </div>
        </section>
      ))}
      {checks.length > CARD_LIMIT && (
        <p className="text-sm text-gray-500">
          Showing {CARD_LIMIT} of {checks.length} checks; narrow the filters or use the table layout to see the rest.
        </p>
      )}
    </div>
  );
}
