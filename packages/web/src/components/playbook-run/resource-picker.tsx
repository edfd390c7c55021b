import { useState } from 'react';
import { inputClass } from '#web/components/forms/index.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';
import { useResourceSearch, type ResourceOption, type ResourceScope } from './api.ts';

const KIND_LABEL = { check: 'Check', config: 'Catalog Item', component: 'Component' } as const;

/** The value a picker holds: the kind and id of the chosen resource. */
const resourceKey = (r: Pick<ResourceOption, 'kind' | 'id'>) => `${r.kind}:${r.id}`;

/**
 * A search box (300 ms, seed 000 section 5) over the resources in scope, and the list
 * to choose from. Used for the dialog's Resource selector and the component/config/check parameters.
 */
export function ResourcePicker({
  id,
  label,
  scope,
  value,
  onChange,
  invalid,
}: {
  id: string;
  label: string;
  scope: ResourceScope;
  value: string;
  onChange: (key: string, option?: ResourceOption) => void;
  invalid?: boolean;
}) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 300);
  const results = useResourceSearch(scope, debounced, true);
  const options = results.data ?? [];
  const kinds = new Set(options.map((o) => o.kind));
  return (
    <div className="flex flex-col gap-1.5 sm:flex-row">
      <input
        type="search"
        aria-label={`Search ${label}`}
        placeholder="Search…"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className={inputClass()}
      />
      <div className="relative w-full">
        <select
          id={id}
          aria-label={label}
          aria-busy={results.isFetching || undefined}
          aria-invalid={invalid || undefined}
          value={value}
          onChange={(e) =>
            onChange(
              e.target.value,
              options.find((o) => resourceKey(o) === e.target.value),
            )
          }
          className={inputClass(invalid)}
        >
          <option value="">{results.isPending ? 'Loading…' : options.length ? 'Select…' : 'No resources found'}</option>
          {options.map((o) => (
            <option key={resourceKey(o)} value={resourceKey(o)}>
              {kinds.size > 1 ? `${KIND_LABEL[o.kind]}: ` : ''}
              {o.name}
              {o.type ? ` (${o.type})` : ''}
            </option>
          ))}
        </select>
        {results.isFetching && <Spinner size={12} className="absolute top-2.5 right-7" />}
      </div>
      {results.error && <p className="text-xs text-red-600">{(results.error as Error).message}</p>}
    </div>
  );
}
