import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Bug, RotateCw } from 'lucide-react';
import { NotFoundPage } from '../not-found-page.tsx';

const RENDER_ERROR_MESSAGE = 'Sorry.. there was an error';

/** The fallback for uncaught render errors (react-router errorElement). */
export function RenderError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const detail =
    error instanceof Error
      ? error.message
      : isRouteErrorResponse(error)
        ? `${error.status} ${error.statusText}`
        : String(error ?? '');
  return (
    <div className="flex min-h-[60vh] items-center justify-center p-6" role="alert">
      <div className="w-full max-w-lg rounded-xl border border-gray-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          <Bug size={24} aria-hidden />
        </div>
        <h1 className="mt-4 text-base font-semibold text-gray-900">{RENDER_ERROR_MESSAGE}</h1>
        {detail && (
          <pre className="mt-3 max-h-48 overflow-auto rounded-md bg-gray-50 p-3 text-left font-mono text-xs whitespace-pre-wrap text-gray-600">
            {detail}
          </pre>
        )}
        <div className="mt-6 flex justify-center gap-2">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-700"
          >
            <RotateCw size={14} aria-hidden /> Reload
          </button>
          <a
            href="/"
            className="inline-flex items-center rounded-md border border-gray-300 bg-white px-3.5 py-2 text-sm font-medium text-gray-700 shadow-sm hover:bg-gray-50"
          >
            Go back
          </a>
        </div>
      </div>
    </div>
  );
}
