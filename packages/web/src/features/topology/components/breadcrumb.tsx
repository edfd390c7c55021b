import { Fragment } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ChevronRight } from 'lucide-react';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useComponentName, useComponentNames } from '../api/lookups.ts';

/** A component's ancestors from its dot-separated path (root first), itself left out. */
export function ancestorIds(path: string | null | undefined, id: string): string[] {
  return (path ?? '').split('.').filter((p) => p && p !== id);
}

/**
 * Topology > ancestors > the component (seed 002 section 2.7: built from the path ancestors).
 * Each step keeps the dashboard's filters.
 */
export function TopologyBreadcrumb({ id }: { id?: string }) {
  const [params] = useSearchParams();
  const current = useComponentName(id);
  const ancestors = useComponentNames(id && current.data ? ancestorIds(current.data.path, id) : []);
  const q = new URLSearchParams(params);
  q.delete('refererId');
  const search = q.toString() ? `?${q}` : '';
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-base">
        <li className="shrink-0">
          {id ? (
            <Link to={`/topology${search}`} className="font-semibold text-gray-600 hover:text-gray-900 hover:underline">
              Topology
            </Link>
          ) : (
            <span className="font-semibold text-gray-900" aria-current="page">
              Topology
            </span>
          )}
        </li>
        {(ancestors.data ?? []).map((a) => (
          <Fragment key={a.id}>
            <ChevronRight size={14} aria-hidden className="shrink-0 text-gray-400" />
            <li className="min-w-0 truncate">
              <Link to={`/topology/${a.id}${search}`} className="text-gray-600 hover:text-gray-900 hover:underline">
                {a.title || a.name}
              </Link>
            </li>
          </Fragment>
        ))}
        {id && (
          <>
            <ChevronRight size={14} aria-hidden className="shrink-0 text-gray-400" />
            <li className="min-w-0 truncate font-semibold text-gray-900" aria-current="page">
              {current.data ? current.data.title || current.data.name : current.isPending ? <Spinner /> : id}
            </li>
          </>
        )}
      </ol>
    </nav>
  );
}
