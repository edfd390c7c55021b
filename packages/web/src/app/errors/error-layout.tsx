import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { BRAND_ICON } from '../navigation.ts';

/** A centred card for the pages shown outside the shell (errors). */
export function ErrorLayout({
  icon,
  title,
  children,
  action,
  backTo = '/',
}: {
  icon: ReactNode;
  title: ReactNode;
  children?: ReactNode;
  /** the way forward, beside Go back */
  action?: ReactNode;
  backTo?: string | null;
}) {
  const Brand = BRAND_ICON;
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gray-50 p-6">
      <div className="mb-6 flex items-center gap-2 text-gray-900">
        <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-blue-600 text-white">
          <Brand size={18} aria-hidden />
        </span>
        <span className="text-lg font-semibold tracking-tight">Watchdeck</span>
      </div>
      <main className="w-full max-w-lg rounded-xl border border-gray-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          {icon}
        </div>
        <h1 className="mt-4 text-base font-semibold text-gray-900">{title}</h1>
        {children}
        {(action || backTo !== null) && (
          <div className="mt-6 flex flex-wrap items-center justify-center gap-2">
            {action}
            {backTo !== null && (
              <Link
                to={backTo}
                className="inline-flex items-center gap-1.5 rounded-md border border-gray-300 bg-white px-3.5 py-2 text-sm font-medium text-gray-700 shadow-sm hover:bg-gray-50"
              >
                <ArrowLeft size={14} aria-hidden /> Go back
              </Link>
            )}
          </div>
        )}
      </main>
    </div>
  );
}
