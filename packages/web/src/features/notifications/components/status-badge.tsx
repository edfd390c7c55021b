import { cn } from '#web/lib/cn.ts';
import { SEND_STATUS_LABELS, type SendStatus } from '../lib/constants.ts';

const COLOURS: Record<SendStatus, string> = {
  sent: 'bg-green-50 text-green-800 ring-green-200',
  error: 'bg-red-50 text-red-800 ring-red-200',
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  cancelled: 'bg-gray-100 text-gray-700 ring-gray-200',
  'repeat-interval': 'bg-blue-50 text-blue-800 ring-blue-200',
  silenced: 'bg-purple-50 text-purple-800 ring-purple-200',
};

/** A send's status; repeat-interval reads Repeated (seed 002 section 3). */
export function SendStatusBadge({ status }: { status: string }) {
  const known = status in SEND_STATUS_LABELS ? (status as SendStatus) : undefined;
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        known ? COLOURS[known] : 'bg-gray-100 text-gray-700 ring-gray-200',
      )}
    >
      {known ? SEND_STATUS_LABELS[known] : status}
    </span>
  );
}
