import { useEffect, useId, useState } from 'react';
import { LayoutGrid, Search, Table2 } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import type { Choice } from '../lib/grouping.ts';
import type { HealthLayout } from '../lib/use-health-params.ts';
import { useDebouncedValue } from '#web/lib/use-debounced.ts';

const SEARCH_PLACEHOLDER = 'Search by name, description, or endpoint';
const SEARCH_DEBOUNCE_MS = 400;

const selectClass =
  'h-9 rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-700 shadow-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none';

/** The search box: typing updates the URL's `query` 400 ms after the last key. */
function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (debounced !== value) onChange(debounced);
    // only a settled change of the text is written; outside changes of `value` reset the box below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    // the URL changed from elsewhere (back button, a link): show what it says
    setSeen(value);
    if (value !== debounced) setText(value);
  }
  return (
    <div className="relative min-w-56 flex-1">
      <Search
        size={15}
        className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-gray-400"
        aria-hidden
      />
      <input
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label="Search checks"
        className="h-9 w-full rounded-md border border-gray-300 bg-white pr-2 pl-8 text-sm shadow-sm placeholder:text-gray-400 focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none"
      />
    </div>
  );
}

function LabelledSelect({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: string;
  choices: readonly Choice[];
  onChange: (v: string) => void;
}) {
  const id = useId();
  const known = choices.some((c) => c.value === value);
  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor={id} className="text-sm whitespace-nowrap text-gray-600">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={selectClass}>
        {!known && <option value={value}>{value}</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Toolbar({
  query,
  onQueryChange,
  groupBy,
  groupChoices,
  onGroupByChange,
  tabBy,
  tabChoices,
  onTabByChange,
  layout,
  onLayoutChange,
}: {
  query: string;
  onQueryChange: (q: string) => void;
  groupBy: string;
  groupChoices: readonly Choice[];
  onGroupByChange: (v: string) => void;
  tabBy: string;
  tabChoices: readonly Choice[];
  onTabByChange: (v: string) => void;
  layout: HealthLayout;
  onLayoutChange: (l: HealthLayout) => void;
}) {
  const layoutButton = (l: HealthLayout, Icon: typeof Table2, text: string) => (
    <button
      type="button"
      aria-pressed={layout === l}
      aria-label={text}
      title={text}
      onClick={() => onLayoutChange(l)}
      className={cn(
        'inline-flex h-7 w-8 items-center justify-center rounded',
        layout === l ? 'bg-gray-900 text-white' : 'text-gray-500 hover:bg-gray-100',
      )}
    >
      <Icon size={15} aria-hidden />
    </button>
  );
  return (
    <div className="flex flex-wrap items-center gap-3">
      <SearchBox value={query} onChange={onQueryChange} />
      <LabelledSelect label="Group By" value={groupBy} choices={groupChoices} onChange={onGroupByChange} />
      <LabelledSelect label="Tab By" value={tabBy} choices={tabChoices} onChange={onTabByChange} />
      <div
        className="inline-flex rounded-md border border-gray-300 bg-white p-0.5 shadow-sm"
        role="group"
        aria-label="Layout"
      >
        {layoutButton('table', Table2, 'Table layout')}
        {layoutButton('card', LayoutGrid, 'Card layout')}
      </div>
    </div>
  );
}

export function HealthTabs({
  tabs,
  active,
  counts,
  onChange,
}: {
  tabs: readonly string[];
  active: string;
  counts: Record<string, number>;
  onChange: (tab: string) => void;
}) {
  return (
    <div role="tablist" aria-label="Check tabs" className="flex gap-1 overflow-x-auto border-b border-gray-200">
      {tabs.map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          aria-selected={t === active}
          onClick={() => onChange(t)}
          className={cn(
            '-mb-px shrink-0 border-b-2 px-3 py-1.5 text-sm font-medium whitespace-nowrap',
            t === active ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-500 hover:text-gray-800',
          )}
        >
          {t}
          <span className="ml-1.5 rounded-full bg-gray-100 px-1.5 text-xs text-gray-600">{counts[t] ?? 0}</span>
        </button>
      ))}
    </div>
  );
}
