import { useEffect, type ReactNode } from 'react';
import { Radar } from 'lucide-react';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { FlowMessages } from './flow-messages.tsx';

/**
 * The frame of the public account pages (outside the shell): the product mark, a card with the
 * page title, and links under it. The title also names the browser tab.
 */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · Watchdeck`;
    return () => {
      document.title = previous;
    };
  }, [title]);
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gray-50 p-6">
      <div className="mb-6 flex items-center gap-2 text-gray-900">
        <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-blue-600 text-white">
          <Radar size={18} aria-hidden />
        </span>
        <span className="text-lg font-semibold tracking-tight">Watchdeck</span>
      </div>
      <main className="w-full max-w-md rounded-xl border border-gray-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-gray-500">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </main>
      {footer && (
        <div className="mt-4 flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm text-gray-600">{footer}</div>
      )}
    </div>
  );
}

/** While the flow loads; or what went wrong when no form can be shown. */
export function FlowPending({ failure }: { failure: string | null }) {
  if (failure) return <FlowMessages messages={[{ id: 0, type: 'error', text: failure }]} />;
  return (
    <div className="flex justify-center py-6" role="status" aria-label="Loading">
      <Spinner size={22} />
    </div>
  );
}

export const linkClass = 'font-medium text-blue-600 hover:text-blue-700 hover:underline';
