import { useMemo } from 'react';
import { NO_DATA_MESSAGE } from '#web/components/data-table/index.ts';
import { formatDuration } from '#web/lib/format.ts';
import { cn } from '#web/lib/cn.ts';
import type { CheckSummary } from '../api/types.ts';
import { HEALTH_DOT_CLASS, formatPercent, headlineLatency, healthColour, uptimePercent } from '../lib/status.ts';
import type { PivotCellType } from '../lib/use-health-params.ts';

/** What a pivot cell shows: the status dot, the uptime or the latency of the check. */
function Cell({ check, type, onOpen }: { check: CheckSummary; type: PivotCellType; onOpen: () => void }) {
  let content;
  if (type === 'uptime') content = formatPercent(uptimePercent(check.uptime));
  else if (type === 'latency') {
    const v = headlineLatency(check);
    content = v === undefined ? '—' : formatDuration(v);
  } else {
    content = (
      <span
        className={cn('inline-block h-3 w-3 rounded-full', HEALTH_DOT_CLASS[healthColour(check.status)])}
        aria-label={check.status ?? 'unknown'}
      />
    );
  }
  return (
    <button
      type="button"
      onClick={onOpen}
      title={check.name}
      className="rounded px-1.5 py-0.5 tabular-nums hover:bg-blue-50"
    >
      {content}
    </button>
  );
}

/**
 * The pivot view (pivotBy=labels): one row per check name, one column per value of the
 * `pivotLabel` label, each cell the check's status, uptime or latency (pivotCellType).
 */
export function PivotTable({
  checks,
  pivotLabel,
  cellType,
  onOpen,
}: {
  checks: readonly CheckSummary[];
  pivotLabel: string;
  cellType: PivotCellType;
  onOpen: (c: CheckSummary) => void;
}) {
  const { rows, columns } = useMemo(() => {
    const cols = new Set<string>();
    const byName = new Map<string, Map<string, CheckSummary>>();
    for (const c of checks) {
      const v = c.labels[pivotLabel] ?? '';
      cols.add(v);
      const row = byName.get(c.name) ?? new Map<string, CheckSummary>();
      if (!row.has(v)) row.set(v, c);
      byName.set(c.name, row);
    }
    return {
      columns: [...cols].sort((a, b) => a.localeCompare(b)),
      rows: [...byName.entries()].sort(([a], [b]) => a.localeCompare(b)),
    };
  }, [checks, pivotLabel]);
  if (!rows.length) {
    return (
      <p className="rounded-lg border border-gray-200 bg-white py-12 text-center text-sm text-gray-500">
        {NO_DATA_MESSAGE}
      </p>
    );
  }
  return (
    <div
      className="overflow-auto rounded-lg border border-gray-200 bg-white"
      style={{ maxHeight: 'calc(100vh - 15rem)' }}
    >
      <table className="w-full border-collapse text-sm" aria-label={`Checks by ${pivotLabel}`}>
        <thead className="sticky top-0 bg-gray-50">
          <tr>
            <th className="border-b border-gray-200 px-3 py-2 text-left text-xs font-semibold text-gray-500 uppercase">
              Checks
            </th>
            {columns.map((c) => (
              <th
                key={c}
                className="border-b border-gray-200 px-3 py-2 text-center text-xs font-semibold text-gray-500"
              >
                {c || '(none)'}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, cells]) => (
            <tr key={name} className="border-b border-gray-100 last:border-b-0">
              <td className="px-3 py-1.5 font-medium text-gray-900">{name}</td>
              {columns.map((col) => {
                const check = cells.get(col);
                return (
                  <td key={col} className="px-3 py-1.5 text-center">
                    {check ? <Cell check={check} type={cellType} onOpen={() => onOpen(check)} /> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
