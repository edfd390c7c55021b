import { useState } from 'react';

/** How many label chips show before '+N more'. */
const VISIBLE_LABELS = 3;

/** Label chips, the first few shown and the rest behind '+N more' (click to show all). */
export function LabelChips({ labels }: { labels: Record<string, string> }) {
  const [all, setAll] = useState(false);
  const entries = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return null;
  const shown = all ? entries : entries.slice(0, VISIBLE_LABELS);
  const hidden = entries.length - shown.length;
  return (
    <ul className="flex flex-wrap items-center gap-1.5" aria-label="Labels" data-testid="label-chips">
      {shown.map(([k, v]) => (
        <li key={k} className="rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-700" title={`${k}: ${v}`}>
          <span className="text-gray-500">{k}:</span> {v}
        </li>
      ))}
      {hidden > 0 && (
        <li>
          <button
            type="button"
            onClick={() => setAll(true)}
            className="rounded-full border border-gray-200 px-2 py-0.5 text-xs text-blue-700 hover:bg-blue-50"
          >
            {`+${hidden} more`}
          </button>
        </li>
      )}
    </ul>
  );
}
