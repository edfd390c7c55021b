import { AlertTriangle, RotateCw } from 'lucide-react';
import { errorMessage } from '#web/lib/http.ts';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

/** The view shown while the session and feature flags load. */
export function FullPageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div
      className="flex h-screen flex-col items-center justify-center gap-3 bg-gray-50"
      role="status"
      aria-live="polite"
    >
      <Spinner size={28} className="text-blue-600" />
      <span className="text-sm text-gray-500">{label}</span>
    </div>
  );
}

export function FullPageError({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <div className="flex h-screen items-center justify-center bg-gray-50 p-6" role="alert">
      <div className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 text-center shadow-sm">
        <AlertTriangle className="mx-auto text-amber-500" size={32} aria-hidden />
        <h1 className="mt-3 text-lg font-semibold text-gray-900">{title}</h1>
        <p className="mt-1 text-sm text-gray-600">{errorMessage(error)}</p>
        {onRetry && (
          <Button className="mt-4" onClick={onRetry}>
            <RotateCw size={14} aria-hidden /> Retry
          </Button>
        )}
      </div>
    </div>
  );
}
