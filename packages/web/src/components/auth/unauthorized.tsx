import { ShieldAlert } from 'lucide-react';

/** The screen shown where the user may not go. */
export function Unauthorized() {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-3 p-8 text-center" role="alert">
      <ShieldAlert size={40} className="text-red-500" aria-hidden />
      <h1 className="text-lg text-gray-700">
        <span className="font-semibold text-gray-900">Unauthorized</span> — You do not have permission to access this
        page
      </h1>
    </div>
  );
}
