import { Link, useLocation } from 'react-router';
import { Compass } from 'lucide-react';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center p-8 text-center">
      <div className="flex h-12 w-12 items-center justify-center rounded-full bg-gray-100 text-gray-500">
        <Compass size={24} aria-hidden />
      </div>
      <h1 className="mt-4 text-lg font-semibold text-gray-900">Page not found</h1>
      <p className="mt-1 text-sm text-gray-600">
        There is nothing at <code className="rounded bg-gray-100 px-1 py-0.5 font-mono text-xs">{pathname}</code>.
      </p>
      <Link
        to="/"
        className="mt-5 inline-flex items-center rounded-md border border-gray-300 bg-white px-3.5 py-2 text-sm font-medium text-gray-700 shadow-sm hover:bg-gray-50"
      >
        Go home
      </Link>
    </div>
  );
}
