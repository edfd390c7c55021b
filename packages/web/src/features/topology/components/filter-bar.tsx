import { useId, type ReactNode } from 'react';
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { COMPONENT_STATUSES } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import { useAgents, useComponentLabels } from '../api/lookups.ts';
import { ALL } from '../lib/constants.ts';
import { STANDARD_SORTS, type TopologySort } from '../lib/sort.ts';

function Select({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <span className="flex items-center gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-gray-600">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 max-w-32 rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {children}
      </select>
    </span>
  );
}

const options = (values: readonly string[]) =>
  values.map((v) => (
    <option key={v} value={v}>
      {v}
    </option>
  ));

/** Health, Type, Team, Labels, Agent and the sort (seed 002 section 2.7). */
export function FilterBar({
  types,
  teams,
  headlineProperties,
  sort,
  children,
}: {
  types: readonly string[];
  teams: readonly string[];
  headlineProperties: readonly string[];
  sort: TopologySort;
  children?: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const labels = useComponentLabels();
  const agents = useAgents();
  const get = (k: string) => params.get(k) || ALL;
  const set = (k: string) => (v: string) =>
    setParams(
      () => {
        // the address bar, not the hook's last render: a second choice made before the page
        // re-rendered after the first would otherwise drop the first (react-router's prev is stale)
        const next = new URLSearchParams(window.location.search);
        if (v === ALL) next.delete(k);
        else next.set(k, v);
        return next;
      },
      { replace: true },
    );
  const labelValues = (labels.data ?? []).map((l) => `${l.key}=${l.value}`);
  const chosenLabel = params.get('labels');
  const sortChoices = [...STANDARD_SORTS.map((s) => s.value as string), ...headlineProperties];
  if (!sortChoices.includes(sort.sortBy)) sortChoices.push(sort.sortBy);
  const sortLabel = (v: string) => STANDARD_SORTS.find((s) => s.value === v)?.label ?? v;

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2" role="group" aria-label="Filters">
      <Select label="Health" value={get('status')} onChange={set('status')}>
        <option value={ALL}>{ALL}</option>
        {COMPONENT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s[0].toUpperCase() + s.slice(1)}
          </option>
        ))}
      </Select>
      <Select label="Type" value={get('type')} onChange={set('type')}>
        <option value={ALL}>{ALL}</option>
        {options([...new Set([...types, ...(params.get('type') ? [params.get('type')!] : [])])].sort())}
      </Select>
      <Select label="Team" value={get('team')} onChange={set('team')}>
        <option value={ALL}>{ALL}</option>
        {options([...new Set([...teams, ...(params.get('team') ? [params.get('team')!] : [])])].sort())}
      </Select>
      <Select label="Labels" value={get('labels')} onChange={set('labels')}>
        <option value={ALL}>{ALL}</option>
        {options(chosenLabel && !labelValues.includes(chosenLabel) ? [chosenLabel, ...labelValues] : labelValues)}
      </Select>
      <Select label="Agent" value={get('agent_id')} onChange={set('agent_id')}>
        <option value={ALL}>{ALL}</option>
        {(agents.data ?? []).map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </Select>
      <span className="flex items-center gap-1">
        <Select label="Sort By" value={sort.sortBy} onChange={(v) => sort.setSort(v, sort.sortOrder)}>
          {sortChoices.map((v) => (
            <option key={v} value={v}>
              {sortLabel(v)}
            </option>
          ))}
        </Select>
        <Button
          variant="ghost"
          size="icon"
          aria-label={sort.sortOrder === 'asc' ? 'Sort ascending' : 'Sort descending'}
          title={sort.sortOrder === 'asc' ? 'Ascending' : 'Descending'}
          onClick={() => sort.setSort(sort.sortBy, sort.sortOrder === 'asc' ? 'desc' : 'asc')}
        >
          {sort.sortOrder === 'asc' ? (
            <ArrowUpNarrowWide size={16} aria-hidden />
          ) : (
            <ArrowDownWideNarrow size={16} aria-hidden />
          )}
        </Button>
      </span>
      {children}
    </div>
  );
}
