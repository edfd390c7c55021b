import { CircleCheck, CircleDashed, CircleSlash, CircleX, Loader2 } from 'lucide-react';
import { formatDuration } from '#web/lib/format.ts';
import { cn } from '#web/lib/cn.ts';
import type { RunAction } from '../api/types.ts';

/** The synthetic step of a run that failed before any action ran (seed 002 section 2.16). */
export const INITIALIZATION = 'Initialization';

function StepIcon({ status }: { status: string }) {
  if (status === 'completed') return <CircleCheck size={16} className="text-green-600" aria-hidden />;
  if (status === 'failed') return <CircleX size={16} className="text-red-600" aria-hidden />;
  if (status === 'skipped' || status === 'cancelled')
    return <CircleSlash size={16} className="text-gray-400" aria-hidden />;
  if (status === 'running') return <Loader2 size={16} className="animate-spin text-blue-600" aria-hidden />;
  return <CircleDashed size={16} className="text-gray-400" aria-hidden />;
}

export interface Step extends Pick<RunAction, 'id' | 'name' | 'status' | 'start_time' | 'end_time'> {
  synthetic?: boolean;
}

/** The run's steps; a skipped step cannot be selected. */
export function ActionSteps({
  steps,
  selected,
  onSelect,
}: {
  steps: readonly Step[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  return (
    <ol aria-label="Action steps" className="flex flex-col gap-1">
      {steps.map((s) => {
        const ms =
          s.start_time && s.end_time ? new Date(s.end_time).getTime() - new Date(s.start_time).getTime() : null;
        return (
          <li key={s.id}>
            <button
              type="button"
              disabled={s.status === 'skipped'}
              aria-current={s.id === selected || undefined}
              onClick={() => onSelect(s.id)}
              className={cn(
                'flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm',
                s.id === selected ? 'bg-blue-50 text-blue-900 ring-1 ring-blue-200' : 'hover:bg-gray-50',
                'disabled:cursor-not-allowed disabled:text-gray-400 disabled:hover:bg-transparent',
              )}
              data-status={s.status}
            >
              <StepIcon status={s.status} />
              <span className="min-w-0 flex-1 truncate">{s.name}</span>
              <span className="text-xs text-gray-500">{s.status === 'skipped' ? 'skipped' : formatDuration(ms)}</span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
