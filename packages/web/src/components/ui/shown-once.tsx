import { Copy } from 'lucide-react';
import { copyToClipboard } from '#web/lib/clipboard.ts';
import { Button } from './button.tsx';

/** Seed 000 section 8's notice beside a secret the server returns only at creation. */
const SHOWN_ONCE_NOTICE = 'Access token will be shown only once. Please copy it and store it securely.';

/**
 * A freshly created secret (an access token): the notice, the value selectable in full, and a copy
 * button. Whoever shows it drops it from memory once the person moves on.
 */
export function ShownOnce({ value, label = 'Access token' }: { value: string; label?: string }) {
  return (
    <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3" role="status">
      <p className="text-sm font-medium text-amber-900">{SHOWN_ONCE_NOTICE}</p>
      <div className="flex items-center gap-2">
        <code
          aria-label={label}
          className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs text-gray-900 ring-1 ring-amber-200 select-all"
        >
          {value}
        </code>
        <Button size="sm" onClick={() => void copyToClipboard(value)} aria-label={`Copy ${label.toLowerCase()}`}>
          <Copy size={14} aria-hidden /> Copy
        </Button>
      </div>
    </div>
  );
}
