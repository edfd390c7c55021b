import type { SourceSync } from '../api/use-sources.ts';

const STATUS_CLASS: Record<string, string> = {
  SUCCESS: 'bg-green-50 text-green-800',
  WARNING: 'bg-amber-50 text-amber-800',
  FAILED: 'bg-red-50 text-red-800',
  RUNNING: 'bg-blue-50 text-blue-800',
  STOPPED: 'bg-gray-100 text-gray-700',
};

export function SyncStatus({ status }: { status: string }) {
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_CLASS[status] ?? STATUS_CLASS.STOPPED}`}>
      {status.toLowerCase()}
    </span>
  );
}

/** The problems of a sync, one a line: by file, or the one reason it failed. */
function problemsOf(sync: Pick<SourceSync, 'details'>): string[] {
  const e = sync.details?.errors;
  if (!e) return [];
  if (typeof e === 'string') return [e];
  if (Array.isArray(e)) return e;
  return Object.values(e);
}

/** A sync's outcome: status, counts, commit, and each bad file with its problem. */
export function SyncResult({ sync }: { sync: Pick<SourceSync, 'status' | 'details'> | null }) {
  if (!sync) return <p className="mt-4 border-t border-gray-100 pt-3 text-sm text-gray-500">Not synced yet.</p>;
  const s = sync.details?.summary;
  const problems = problemsOf(sync);
  return (
    <section aria-label="Last sync" className="mt-4 flex flex-col gap-2 border-t border-gray-100 pt-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-gray-900">Last sync</span>
        <SyncStatus status={sync.status} />
        {s && (
          <span className="text-gray-600">
            {s.added} added, {s.updated} updated, {s.unchanged} unchanged, {s.deleted} deleted, {s.errors} errors
          </span>
        )}
        {sync.details?.commit && (
          <code className="text-xs text-gray-500" title={sync.details.commit}>
            {sync.details.commit.slice(0, 10)}
          </code>
        )}
      </div>
      {problems.length > 0 && (
        <ul aria-label="Sync errors" className="max-h-40 list-disc overflow-auto pl-5 text-red-700">
          {problems.map((p) => (
            <li key={p} className="break-words">
              {p}
            </li>
          ))}
        </ul>
      )}
      {sync.details?.warnings?.map((w) => (
        <p key={w} className="text-amber-700">
          {w}
        </p>
      ))}
    </section>
  );
}
