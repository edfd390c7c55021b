import { useId } from 'react';
import { RefreshCw } from 'lucide-react';
import { REFRESH_OPTIONS, isRefreshDisabled, type HealthTimeRange } from '../lib/time-ranges.ts';

/**
 * Auto-refresh (seed 000 section 9): None by default, remembered locally. Rates too fast for a
 * long range are disabled; a remembered rate that is disabled for this range shows as None.
 */
export function RefreshSelect({
  value,
  onChange,
  timeRange,
}: {
  value: string;
  onChange: (value: string) => void;
  timeRange: HealthTimeRange;
}) {
  const id = useId();
  const effective = isRefreshDisabled(value, timeRange) ? 'none' : value;
  return (
    <div className="relative inline-flex items-center">
      <label htmlFor={id} className="sr-only">
        Auto refresh
      </label>
      <RefreshCw size={14} className="pointer-events-none absolute left-2.5 text-gray-500" aria-hidden />
      <select
        id={id}
        value={effective}
        onChange={(e) => onChange(e.target.value)}
        title="Auto refresh"
        className="h-9 rounded-md border border-gray-300 bg-white pr-7 pl-8 text-sm text-gray-700 shadow-sm hover:bg-gray-50 focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none"
      >
        {REFRESH_OPTIONS.map((o) => (
          <option key={o.value} value={o.value} disabled={isRefreshDisabled(o.value, timeRange)}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
