import { useEffect, useState } from 'react';
import { Spinner } from '#web/components/ui/spinner.tsx';

/**
 * What the dashboard shows until its first summary answers, in place of the table: an empty
 * table would say "no checks" while thousands are on their way. The seconds waited tell a slow
 * server from a stuck page.
 */
export function SummaryProgress() {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.floor((now - started) / 1000);
  return (
    <div
      className="flex min-h-48 flex-col items-center justify-center gap-3 rounded-lg border border-gray-200 bg-white px-4 py-12 text-sm text-gray-600"
      role="status"
      aria-busy="true"
      data-testid="health-summary-progress"
    >
      <span className="inline-flex items-center gap-2">
        <Spinner /> Loading the health checks…
      </span>
      <div className="h-1 w-48 overflow-hidden rounded bg-gray-100" role="progressbar" aria-label="Loading checks">
        <div className="h-full w-1/3 animate-pulse rounded bg-blue-500" />
      </div>
      {seconds >= 2 && <span className="text-xs text-gray-500">Waiting for the server: {seconds} s</span>}
    </div>
  );
}
