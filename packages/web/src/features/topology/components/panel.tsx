import { useId, useState, type ReactNode } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';

/** A collapsible sidebar panel: its header is a button (keyboard and screen readers). */
export function Panel({
  title,
  count,
  actions,
  defaultOpen = true,
  children,
}: {
  title: string;
  count?: number;
  actions?: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section className="border-b border-gray-200" aria-label={title} data-testid={`panel-${title.toLowerCase()}`}>
      <div className="flex items-center gap-2 px-3 py-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
          className="flex min-w-0 flex-1 items-center gap-1 text-left text-sm font-semibold text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
          {title}
          {count !== undefined && count > 0 && (
            <span className="rounded-full bg-gray-100 px-1.5 text-xs font-normal text-gray-600">{count}</span>
          )}
        </button>
        {actions}
      </div>
      <div id={bodyId} hidden={!open} className="px-3 pb-3">
        {children}
      </div>
    </section>
  );
}

/**
 * A panel's list: its first `size` items, then 'show more' for the rest of what was read (seed 002
 * section 9: 10 items, 5 when the properties panel is empty).
 */
export function PanelList<T>({
  query,
  size,
  render,
  empty = 'No resources found',
}: {
  query: { data?: { rows: T[]; total: number }; isPending: boolean; error: unknown };
  size: number;
  render: (row: T) => ReactNode;
  empty?: string;
}) {
  const [all, setAll] = useState(false);
  if (query.isPending) return <Spinner />;
  if (query.error) return <ErrorAlert error={query.error} />;
  const rows = query.data?.rows ?? [];
  if (!rows.length) return <p className="text-sm text-gray-500">{empty}</p>;
  const shown = all ? rows : rows.slice(0, size);
  return (
    <>
      <ul className="space-y-1">{shown.map(render)}</ul>
      {rows.length > size && (
        <button
          type="button"
          onClick={() => setAll((a) => !a)}
          className="mt-1 text-xs font-medium text-blue-700 hover:underline"
        >
          {all ? 'show less' : 'show more'}
        </button>
      )}
    </>
  );
}
