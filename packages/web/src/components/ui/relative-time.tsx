import { formatDateTime, formatRelative } from '#web/lib/format.ts';

/** '3 minutes ago', the exact time on hover; `fallback` when there is no time. */
export function RelativeTime({
  at,
  fallback = null,
  className,
}: {
  at: string | Date | null | undefined;
  fallback?: React.ReactNode;
  className?: string;
}) {
  if (!at) return <>{fallback}</>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)} className={className}>
      {formatRelative(at)}
    </time>
  );
}
