import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';
import { costDeviation, formatChangesCount, formatCost } from '../lib/format.ts';
import type { Health } from '../api/types.ts';

/** Health colours in the seed's order: green, red, orange, gray. */
export const HEALTH_DOT: Record<Health, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-orange-400',
  unknown: 'bg-gray-400',
};
const HEALTH_TEXT: Record<Health, string> = {
  healthy: 'text-green-700',
  unhealthy: 'text-red-700',
  warning: 'text-orange-700',
  unknown: 'text-gray-500',
};

/** A health dot with the status text beside it. */
export function HealthStatus({ health, status }: { health: Health | null | undefined; status?: string | null }) {
  const h = health ?? 'unknown';
  return (
    <span className="inline-flex items-center gap-1.5" data-health={h}>
      <span className={cn('size-2 shrink-0 rounded-full', HEALTH_DOT[h])} aria-hidden />
      <span className={cn('truncate', HEALTH_TEXT[h])}>{status || h}</span>
    </span>
  );
}

/** Health counts of a summary row, in the seed's colour order. */
export function HealthCounts({ counts }: { counts: Partial<Record<Health, number>> | null | undefined }) {
  const order: Health[] = ['healthy', 'unhealthy', 'warning', 'unknown'];
  return (
    <span className="inline-flex items-center gap-2">
      {order
        .filter((h) => (counts?.[h] ?? 0) > 0)
        .map((h) => (
          <span key={h} className="inline-flex items-center gap-1" title={h}>
            <span className={cn('size-2 rounded-full', HEALTH_DOT[h])} aria-hidden />
            <span className="tabular-nums">{counts?.[h]}</span>
            <span className="sr-only">{h}</span>
          </span>
        ))}
    </span>
  );
}

/** A changes count: k+ above 999, highlighted from 500. */
export function ChangesCount({ value }: { value: number | null | undefined }) {
  if (!value) return null;
  const { text, highlight } = formatChangesCount(value);
  return (
    <span
      className={cn(
        'rounded-full px-1.5 py-0.5 text-xs tabular-nums',
        highlight ? 'bg-red-100 font-semibold text-red-800' : 'bg-gray-100 text-gray-700',
      )}
      data-highlight={highlight || undefined}
    >
      {text}
    </span>
  );
}

/** The 30-day cost, with a badge when the 1-day cost strays more than 10% from the daily average. */
export function Cost({ cost1d, cost30d }: { cost1d?: number | null; cost30d?: number | null }) {
  const text = formatCost(cost30d);
  if (!text) return null;
  const dev = costDeviation(cost1d, cost30d);
  return (
    <span className="inline-flex items-center gap-1 tabular-nums">
      {text}
      {dev && (
        <span
          className={cn(
            'rounded px-1 text-[11px] font-medium',
            dev.up ? 'bg-red-100 text-red-700' : 'bg-green-100 text-green-700',
          )}
          title="1-day cost against the 30-day daily average"
        >
          {dev.up ? '+' : '-'}
          {dev.percent}%
        </span>
      )}
    </span>
  );
}

/** Open insights per analysis type. */
export function AnalysisCounts({ analysis }: { analysis: Record<string, number> | null | undefined }) {
  const entries = Object.entries(analysis ?? {}).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {entries.map(([type, n]) => (
        <span key={type} className="rounded bg-amber-50 px-1.5 text-xs text-amber-800" title={type}>
          {type.replace('_', ' ')} {n}
        </span>
      ))}
    </span>
  );
}

/** key: value chips; a click on one may filter by it. */
export function TagChips({
  tags,
  max = 3,
  onPick,
}: {
  tags: Record<string, string> | null | undefined;
  max?: number;
  onPick?: (key: string, value: string) => void;
}) {
  const entries = Object.entries(tags ?? {});
  if (!entries.length) return null;
  const shown = entries.slice(0, max);
  const chip = (k: string, v: string): ReactNode => (
    <span className="max-w-[14rem] truncate rounded bg-gray-100 px-1.5 text-xs text-gray-700">
      {k}: <span className="font-medium">{String(v)}</span>
    </span>
  );
  return (
    <span className="inline-flex flex-wrap gap-1">
      {shown.map(([k, v]) =>
        onPick ? (
          <button
            key={k}
            type="button"
            onClick={(e) => {
              e.stopPropagation();
              onPick(k, String(v));
            }}
            title={`Filter by ${k}: ${v}`}
            className="hover:ring-1 hover:ring-blue-300"
          >
            {chip(k, String(v))}
          </button>
        ) : (
          <span key={k}>{chip(k, String(v))}</span>
        ),
      )}
      {entries.length > max && <span className="text-xs text-gray-500">+{entries.length - max} more</span>}
    </span>
  );
}

export function SeverityBadge({ severity }: { severity: string | null | undefined }) {
  if (!severity) return null;
  const tone =
    severity === 'critical' || severity === 'blocker' || severity === 'high'
      ? 'bg-red-100 text-red-800'
      : severity === 'medium' || severity === 'warning'
        ? 'bg-orange-100 text-orange-800'
        : 'bg-gray-100 text-gray-700';
  return <span className={cn('rounded px-1.5 text-xs font-medium capitalize', tone)}>{severity}</span>;
}
