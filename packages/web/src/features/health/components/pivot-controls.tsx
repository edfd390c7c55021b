import { useId } from 'react';
import type { HealthParams, PivotCellType } from '../lib/use-health-params.ts';

const selectClass =
  'h-8 rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-700 focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none';

const CELL_LABELS: Record<PivotCellType, string> = { checkStatus: 'Status', uptime: 'Uptime', latency: 'Latency' };

/** Pivot By (None or Labels), the label to pivot on and what a cell shows (pivotBy, pivotLabel, pivotCellType). */
export function PivotControls({
  pivotBy,
  pivotLabel,
  cellType,
  labelKeys,
  onChange,
}: {
  pivotBy: string | undefined;
  pivotLabel: string | undefined;
  cellType: PivotCellType;
  labelKeys: readonly string[];
  onChange: (changes: Partial<HealthParams>) => void;
}) {
  const ids = { by: useId(), label: useId(), cell: useId() };
  const on = pivotBy === 'labels';
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-gray-600">
      <label htmlFor={ids.by}>Pivot By</label>
      <select
        id={ids.by}
        value={on ? 'labels' : ''}
        onChange={(e) =>
          onChange(
            e.target.value
              ? { pivotBy: 'labels', pivotLabel: pivotLabel ?? labelKeys[0] }
              : { pivotBy: undefined, pivotLabel: undefined, pivotCellType: 'checkStatus' },
          )
        }
        className={selectClass}
      >
        <option value="">None</option>
        <option value="labels">Labels</option>
      </select>
      {on && (
        <>
          <label htmlFor={ids.label}>Label</label>
          <select
            id={ids.label}
            value={pivotLabel ?? ''}
            onChange={(e) => onChange({ pivotLabel: e.target.value })}
            className={selectClass}
          >
            {labelKeys.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <label htmlFor={ids.cell}>Cell</label>
          <select
            id={ids.cell}
            value={cellType}
            onChange={(e) => onChange({ pivotCellType: e.target.value as PivotCellType })}
            className={selectClass}
          >
            {(Object.keys(CELL_LABELS) as PivotCellType[]).map((k) => (
              <option key={k} value={k}>
                {CELL_LABELS[k]}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
