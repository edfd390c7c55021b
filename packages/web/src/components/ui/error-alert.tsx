import { errorMessage } from '#web/lib/http.ts';
import { cn } from '#web/lib/cn.ts';

/** A failed load, in the page where its content would be: the message the error catalogue prescribes. */
export function ErrorAlert({ error, className }: { error: unknown; className?: string }) {
  return (
    <div role="alert" className={cn('rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800', className)}>
      {errorMessage(error)}
    </div>
  );
}
