import { cn } from '#web/lib/cn.ts';

/** Job statuses and their colours (seed 002 section 4). */
export const JOB_STATUSES = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED'] as const;

const colour: Record<string, string> = {
  RUNNING: 'bg-yellow-100 text-yellow-800 ring-yellow-300',
  SUCCESS: 'bg-green-100 text-green-800 ring-green-300',
  WARNING: 'bg-orange-100 text-orange-800 ring-orange-300',
  FAILED: 'bg-red-100 text-red-800 ring-red-300',
  STOPPED: 'bg-red-100 text-red-800 ring-red-300',
};

export function JobStatusBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  if (!status) return null;
  return (
    <span
      className={cn(
        'inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        colour[status] ?? 'bg-gray-100 text-gray-700 ring-gray-300',
        className,
      )}
      data-status={status}
    >
      {status}
    </span>
  );
}
