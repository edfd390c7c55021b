import type { ComponentProperty } from '@watchdeck/core';
import { cn } from '#web/lib/cn.ts';
import { formatPropertyValue, isUsageHigh, usageOf } from '../lib/format.ts';

/** A property's value: links for url properties, a usage bar (red above 70%) with a max. */
export function PropertyValue({ property: p }: { property: ComponentProperty }) {
  const text = formatPropertyValue(p);
  const usage = usageOf(p);
  const high = isUsageHigh(p);
  const link = p.links?.[0]?.url ?? (p.type === 'url' ? p.text : undefined);
  return (
    <span className="flex min-w-0 flex-col">
      {link && /^https?:\/\//.test(link) ? (
        <a
          href={link}
          target="_blank"
          rel="noreferrer noopener"
          className="truncate text-blue-700 hover:underline"
          onClick={(e) => e.stopPropagation()}
        >
          {text || link}
        </a>
      ) : (
        <span className={cn('truncate', high && 'text-red-600')} data-usage-high={high || undefined}>
          {text}
        </span>
      )}
      {usage !== undefined && (
        <span className="mt-0.5 h-1 w-full overflow-hidden rounded bg-gray-200" aria-hidden>
          <span
            className={cn('block h-full', high ? 'bg-red-500' : 'bg-blue-500')}
            style={{ width: `${Math.min(100, Math.max(0, usage * 100))}%` }}
          />
        </span>
      )}
    </span>
  );
}
