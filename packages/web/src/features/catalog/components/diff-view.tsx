import { cn } from '#web/lib/cn.ts';
import { diffLines, type DiffLineKind } from '../lib/format.ts';

const LINE_CLASS: Record<DiffLineKind, string> = {
  add: 'bg-green-50 text-green-800',
  remove: 'bg-red-50 text-red-800',
  hunk: 'bg-blue-50 text-blue-700',
  header: 'text-gray-500',
  context: 'text-gray-700',
};

/** A unified diff with its added lines green and removed lines red. */
export function DiffView({ diff }: { diff: string | null | undefined }) {
  const lines = diffLines(diff);
  if (!lines.length) return <p className="text-sm text-gray-500">No diff recorded for this change.</p>;
  return (
    <pre
      className="max-h-[50vh] overflow-auto rounded border border-gray-200 bg-white py-1 font-mono text-xs leading-5"
      aria-label="Diff"
    >
      {lines.map((l, i) => (
        <div key={i} data-diff={l.kind} className={cn('px-3 whitespace-pre', LINE_CLASS[l.kind])}>
          {l.text || ' '}
        </div>
      ))}
    </pre>
  );
}
