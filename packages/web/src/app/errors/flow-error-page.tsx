import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { CircleAlert } from 'lucide-react';
import { ApiError, apiRequest } from '../../lib/http.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorLayout } from './error-layout.tsx';

const GONE = new Set([403, 404, 410]);

function describe(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  return JSON.stringify(body, null, 2);
}

/**
 * /error/:id: an identity-flow error fetched by id. A missing, forbidden or expired one sends the
 * user home; anything else is shown.
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
  const body =
    query.error instanceof ApiError ? (query.error.body ?? query.error.message) : (query.data ?? query.error?.message);
  return (
    <ErrorLayout icon={<CircleAlert size={24} aria-hidden />} title="An error occurred">
      <pre
        className="mt-4 max-h-80 overflow-auto rounded-md bg-gray-50 p-3 text-left font-mono text-xs whitespace-pre-wrap text-gray-700"
        data-testid="flow-error-body"
      >
        {describe(body)}
      </pre>
    </ErrorLayout>
  );
}
