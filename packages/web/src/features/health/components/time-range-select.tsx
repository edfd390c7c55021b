import { useId } from 'react';
import { Clock } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { HEALTH_TIME_RANGES, timeRangeLabel, type HealthTimeRange } from '../lib/time-ranges.ts';

/** The health area's range choice: the fixed options of seed 000 section 9, always ending now. */
export function TimeRangeSelect({
  value,
  onChange,
  className,
  label = 'Time range',
}: {
  value: HealthTimeRange;
  onChange: (range: HealthTimeRange) => void;
  className?: string;
  label?: string;
}) {
  const id = useId();
  return (
    <div className={cn('relative inline-flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Clock size={14} className="pointer-events-none absolute left-2.5 text-gray-500" aria-hidden />
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as HealthTimeRange)}
        className="h-9 w-full rounded-md border border-gray-300 bg-white pr-7 pl-8 text-sm text-gray-700 shadow-sm hover:bg-gray-50 focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none"
      >
        {HEALTH_TIME_RANGES.map((r) => (
          <option key={r} value={r}>
            {timeRangeLabel(r)}
          </option>
        ))}
      </select>
    </div>
  );
}
