import type { ReactNode } from 'react';
import { formatDateTime, formatDuration, formatRelative } from '#web/lib/format.ts';
import type { CheckSummary } from '#web/features/health/api/types.ts';
import { formatPercent, isStale, uptimePercent } from '#web/features/health/lib/status.ts';
import type { HealthTimeRange } from '#web/features/health/lib/time-ranges.ts';
import { TimeRangeSelect } from '../time-range-select.tsx';

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0" data-testid={testId}>
      <dt className="text-xs font-medium tracking-wide text-gray-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm text-gray-900">{children}</dd>
    </div>
  );
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatDuration(v));

/**
 * The drawer's stats (seed 000): Uptime with passed and failed counts, Latency 95/97/99,
 * Severity, Last Run with the transition time, Next Run and the range selector. Health age
 * appears only when the last run is over an hour old: the status shown may be out of date.
 */
export function CheckStats({
  check,
  timeRange,
  onTimeRangeChange,
}: {
  check: CheckSummary;
  timeRange: HealthTimeRange;
  onTimeRangeChange: (r: HealthTimeRange) => void;
}) {
  const pct = uptimePercent(check.uptime);
  const stale = isStale(check.last_runtime);
  return (
    // six across from 1280 px, the last column wide enough for 'Last 15 minutes'
    <dl
      className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 xl:grid-cols-[repeat(5,minmax(0,1fr))_12rem]"
      data-testid="check-stats"
    >
      <Stat label="Uptime" testId="stat-uptime">
        <span className="font-semibold tabular-nums">{formatPercent(pct)}</span>
        <span className="ml-1.5 text-xs text-gray-500">
          <span className="text-green-700">{check.uptime.passed} passed</span>
          {' / '}
          <span className="text-red-700">{check.uptime.failed} failed</span>
        </span>
      </Stat>
      <Stat label="Latency 95/97/99" testId="stat-latency">
        <span className="tabular-nums">
          {ms(check.latency.p95)} / {ms(check.latency.p97)} / {ms(check.latency.p99)}
        </span>
      </Stat>
      <Stat label="Severity">
        <span className="capitalize">{check.severity ?? '—'}</span>
      </Stat>
      <Stat label="Last Run" testId="stat-last-run">
        <span title={formatDateTime(check.last_runtime)}>{formatRelative(check.last_runtime) || 'never'}</span>
        {check.last_transition_time && (
          <span className="block text-xs text-gray-500" title={formatDateTime(check.last_transition_time)}>
            Transitioned {formatRelative(check.last_transition_time)}
          </span>
        )}
        {stale && (
          <span className="block text-xs text-orange-600" data-testid="health-age">
            Health age {formatRelative(check.last_runtime).replace(/ ago$/, '')}
          </span>
        )}
      </Stat>
      <Stat label="Next Run">
        <span title={formatDateTime(check.next_runtime)}>{formatRelative(check.next_runtime) || '—'}</span>
      </Stat>
      <Stat label="Time Range">
        <TimeRangeSelect
          value={timeRange}
          onChange={onTimeRangeChange}
          label="Check time range"
          className="w-full max-w-48"
        />
      </Stat>
    </dl>
  );
}
