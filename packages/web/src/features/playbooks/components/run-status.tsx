import { cn } from '#web/lib/cn.ts';

const TONE: Record<string, string> = {
  completed: 'bg-green-50 text-green-800 ring-green-600/20',
  failed: 'bg-red-50 text-red-800 ring-red-600/20',
  cancelled: 'bg-gray-100 text-gray-700 ring-gray-500/20',
  skipped: 'bg-gray-100 text-gray-600 ring-gray-500/20',
  running: 'bg-blue-50 text-blue-800 ring-blue-600/20',
  sleeping: 'bg-indigo-50 text-indigo-800 ring-indigo-600/20',
  waiting: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  pending_approval: 'bg-amber-50 text-amber-800 ring-amber-600/20',
};

/** 'pending_approval' reads 'waiting for approval'. */
export const statusLabel = (s: string) => (s === 'pending_approval' ? 'waiting for approval' : s);

export function RunStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium capitalize ring-1 ring-inset',
        TONE[status] ?? 'bg-gray-50 text-gray-700 ring-gray-500/20',
        className,
      )}
      data-status={status}
    >
      {statusLabel(status)}
    </span>
  );
}
