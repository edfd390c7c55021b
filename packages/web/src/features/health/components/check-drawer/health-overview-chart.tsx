import { useMemo } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import dayjs from 'dayjs';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { formatDuration } from '#web/lib/format.ts';
import type { GraphPoint } from '#web/features/health/api/types.ts';
import { timeTicks } from '#web/features/health/lib/time-ticks.ts';

/**
 * Health Overview: per bucket the passing (green) and failing (red) runs as stacked bars, and
 * the duration as a line on its own axis, so an outage and a slow-down read at a glance.
 */
export function HealthOverviewChart({
  points,
  isLoading,
  error,
  height = 180,
}: {
  points: readonly GraphPoint[] | undefined;
  isLoading: boolean;
  error: unknown;
  height?: number;
}) {
  const data = useMemo(() => (points ?? []).map((p) => ({ ...p, t: Date.parse(p.time) })), [points]);
  // whole minutes, hours or days, each label once (see time-ticks.ts)
  const axis = useMemo(
    () => (data.length ? timeTicks(Math.min(...data.map((d) => d.t)), Math.max(...data.map((d) => d.t))) : undefined),
    [data],
  );
  let body;
  if (error) body = <p className="text-sm text-red-600">{errorMessage(error)}</p>;
  else if (isLoading && !data.length) body = <Spinner />;
  else if (!data.length) body = <p className="text-sm text-gray-500">No runs in this time range</p>;
  if (body) {
    return (
      <div className="flex items-center justify-center" style={{ height }} data-testid="health-overview-chart">
        {body}
      </div>
    );
  }
  return (
    <div style={{ height }} data-testid="health-overview-chart" aria-label="Health Overview chart" role="img">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap={1}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            ticks={axis?.ticks}
            tickFormatter={axis?.format}
            tick={{ fontSize: 11, fill: '#6b7280' }}
            minTickGap={40}
          />
          {/* runs take the lower half, so the duration line stays readable above the bars */}
          <YAxis yAxisId="runs" hide allowDecimals={false} domain={[0, (max: number) => Math.max(1, max) * 2]} />
          <YAxis
            yAxisId="ms"
            orientation="right"
            tick={{ fontSize: 11, fill: '#6b7280' }}
            tickFormatter={(v: number) => formatDuration(v)}
            width={48}
          />
          <Tooltip
            labelFormatter={(t) => dayjs(Number(t)).format('YYYY-MM-DD HH:mm')}
            formatter={(value, name) => (name === 'Duration' ? formatDuration(Number(value)) : String(value))}
          />
          <Bar
            yAxisId="runs"
            maxBarSize={16}
            dataKey="passed"
            name="Passed"
            stackId="runs"
            fill="#22c55e"
            isAnimationActive={false}
          />
          <Bar
            yAxisId="runs"
            maxBarSize={16}
            dataKey="failed"
            name="Failed"
            stackId="runs"
            fill="#ef4444"
            isAnimationActive={false}
          />
          <Line
            yAxisId="ms"
            dataKey="duration"
            name="Duration"
            type="monotone"
            stroke="#2563eb"
            dot={false}
            strokeWidth={1.5}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
