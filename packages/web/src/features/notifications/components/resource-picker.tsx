import { useId, useState } from 'react';
import { Search, X } from 'lucide-react';
import { inputClass } from '#web/components/forms/index.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { errorMessage } from '#web/lib/http.ts';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { useResourceSearch, type ResourceOption } from '../api/use-resource-search.ts';
import { SILENCE_KINDS, type SilenceKind } from '../lib/constants.ts';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';

/** seed 000 section 5: resource search is debounced 300 ms */
const RESOURCE_SEARCH_DEBOUNCE_MS = 300;

export interface PickedResource {
  id: string;
  name: string;
}

/**
 * Picks the one config, component, check or canary a silence names: a search box (name, or a
 * pasted id) over that kind's resources and a list of matches, each a button; the choice shows
 * as a chip with a clear button. Keyboard: type, Tab to a match, Enter.
 */
export function ResourcePicker({
  kind,
  value,
  onChange,
  error,
  disabled,
}: {
  kind: SilenceKind;
  value: PickedResource | null;
  onChange: (v: PickedResource | null) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const label = SILENCE_KINDS.find((k) => k.kind === kind)!.label;
  const [text, setText] = useState('');
  const search = useDebouncedValue(text, RESOURCE_SEARCH_DEBOUNCE_MS);
  const results = useResourceSearch(kind, search);
  const describe = (o: ResourceOption) => o.type ?? o.namespace ?? '';

  if (value)
    return (
      <div className="space-y-1">
        <p className="text-sm font-medium text-gray-700">{label}</p>
        <span className="inline-flex max-w-full items-center gap-1.5 rounded-md border border-gray-300 bg-gray-50 py-1 pr-1 pl-2.5 text-sm text-gray-900">
          <span className="truncate" data-testid="picked-resource">
            {value.name}
          </span>
          {!disabled && (
            <button
              type="button"
              aria-label={`Clear ${label.toLowerCase()}`}
              onClick={() => onChange(null)}
              className="rounded p-0.5 text-gray-500 hover:bg-gray-200 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <X size={14} aria-hidden />
            </button>
          )}
        </span>
      </div>
    );

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
        <span className="ml-0.5 text-red-500" aria-hidden>
          *
        </span>
      </label>
      <div className="relative">
        <Search
          size={15}
          className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-gray-400"
          aria-hidden
        />
        <input
          id={id}
          type="search"
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          placeholder={`Search ${label.toLowerCase()} by name or id`}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-controls={`${id}-results`}
          className={cn(inputClass(!!error), 'pl-8')}
        />
      </div>
      <ul
        id={`${id}-results`}
        aria-label={`Matching ${label.toLowerCase()} resources`}
        aria-busy={results.isFetching || undefined}
        className="max-h-48 overflow-auto rounded-md border border-gray-200"
      >
        {results.isLoading ? (
          <li className="flex justify-center p-2">
            <Spinner />
          </li>
        ) : results.data?.length ? (
          results.data.map((o) => (
            <li key={o.id}>
              <button
                type="button"
                disabled={disabled}
                onClick={() => onChange({ id: o.id, name: o.name })}
                className="flex w-full items-center justify-between gap-3 px-2.5 py-1.5 text-left text-sm text-gray-800 hover:bg-blue-50 focus-visible:bg-blue-50 focus-visible:outline-none"
              >
                <span className="truncate">{o.name}</span>
                <span className="shrink-0 text-xs text-gray-500">{describe(o)}</span>
              </button>
            </li>
          ))
        ) : (
          <li className="px-2.5 py-2 text-sm text-gray-500">
            {results.error ? errorMessage(results.error) : NOTIFICATION_MESSAGES.noResources}
          </li>
        )}
      </ul>
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
