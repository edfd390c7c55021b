import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useParams } from 'react-router';
import { CircleAlert } from 'lucide-react';
import { ApiError, apiRequest } from '#web/lib/http.ts';
import { storedFlowErrorView } from '#web/features/account/api/flow-errors.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ErrorLayout } from './error-layout.tsx';

const GONE = new Set([403, 404, 410]);

/**
 * /error/:id: an identity-flow error fetched by id. A missing, forbidden or expired one sends the
 * user home; anything else is shown as a person reads it (the catalogue's message, why, and the
 * way forward the server named: a used invitation link leads to Recover account), never as JSON.
 */
export function FlowErrorPage() {
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: ['auth', 'flow-error', id],
    queryFn: ({ signal }) =>
      apiRequest<unknown>(`/auth/errors/${encodeURIComponent(id)}`, { signal, skipAuthRedirect: true }),
    retry: false,
  });
  if (query.error instanceof ApiError && GONE.has(query.error.status)) return <Navigate to="/" replace />;
  if (query.isPending) {
    return (
      <div className="flex min-h-screen items-center justify-center" role="status">
        <Spinner size={24} />
      </div>
    );
  }
  const view = storedFlowErrorView(query.error instanceof ApiError ? query.error.body : (query.data ?? query.error));
  return (
    <ErrorLayout
      icon={<CircleAlert size={24} aria-hidden />}
      title="An error occurred"
      action={
        view.next && (
          <Link
            to={view.next.to}
            className="inline-flex items-center rounded-md border border-blue-600 bg-blue-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-700"
          >
            {view.next.label}
          </Link>
        )
      }
    >
      <div className="mt-3 space-y-1 text-sm" data-testid="flow-error-body">
        <p className="text-gray-800">{view.message}</p>
        {view.reason && <p className="text-gray-500">{view.reason}</p>}
      </div>
    </ErrorLayout>
  );
}
