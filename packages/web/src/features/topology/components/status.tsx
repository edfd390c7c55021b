import { cn } from '#web/lib/cn.ts';

const DOT: Record<string, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-orange-400',
  info: 'bg-blue-400',
  unknown: 'bg-gray-400',
};

/** A status dot with its name for assistive technology. */
export function StatusDot({ status, className }: { status: string | null | undefined; className?: string }) {
  const s = status ?? 'unknown';
  return (
    <span
      role="img"
      aria-label={s}
      title={s}
      className={cn('inline-block h-2.5 w-2.5 shrink-0 rounded-full', DOT[s] ?? DOT.unknown, className)}
    />
  );
}

/** Card top border: red for unhealthy, orange for warning (seed 002 section 2.7). */
export function statusBorder(status: string | null | undefined): string {
  if (status === 'unhealthy') return 'border-t-red-500';
  if (status === 'warning') return 'border-t-orange-400';
  return 'border-t-gray-200';
}
