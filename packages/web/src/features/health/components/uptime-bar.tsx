import { cn } from '#web/lib/cn.ts';
import { formatPercent, uptimeBarColour, uptimePercent, type HealthColour } from '../lib/status.ts';

const BAR: Record<HealthColour, string> = {
  green: 'bg-green-500',
  orange: 'bg-orange-400',
  red: 'bg-red-500',
  grey: 'bg-gray-300',
};

/** Uptime as a percent (one decimal unless told) over a bar whose colour follows the failures. */
export function UptimeBar({
  passed,
  failed,
  decimals = 1,
  className,
}: {
  passed: number;
  failed: number;
  decimals?: number;
  className?: string;
}) {
  const pct = uptimePercent({ passed, failed });
  const failedPct = pct === undefined ? 0 : 100 - pct;
  return (
    <span
      // narrower under 1024 px, so a table's name column keeps its room
      className={cn('inline-flex min-w-16 flex-col gap-1 lg:min-w-24', className)}
      title={`${passed} passed, ${failed} failed`}
    >
      <span className="text-sm tabular-nums">{formatPercent(pct, decimals)}</span>
      <span className="h-1.5 w-full overflow-hidden rounded-full bg-gray-200" aria-hidden>
        {pct !== undefined && (
          <span
            className={cn('block h-full', BAR[uptimeBarColour(failedPct)])}
            style={{ width: `${Math.max(pct, 2)}%` }}
          />
        )}
      </span>
    </span>
  );
}
