import type { CheckSummary } from '../api/types.ts';
import { LOCAL_AGENT_ID } from '@watchdeck/core';

/**
 * Group By and Tab By (seed 000 "Health dashboard"). Group By: No Grouping, Group Name, Name,
 * Description, Type, then one entry per label key; default canary_name. Tab By: namespace
 * (default), each label key, Agent; the tabs are All plus the distinct values.
 */
export const NO_GROUPING = 'no_grouping';
export const DEFAULT_GROUP_BY = 'canary_name';
export const DEFAULT_TAB_BY = 'namespace';
const AGENT_TAB_BY = 'agent';
export const ALL_TAB = 'All';
/** the tab of checks without a namespace (or without the label) */
const NONE_TAB = 'none';

const FIXED_GROUP_BY = [
  { value: NO_GROUPING, label: 'No Grouping' },
  { value: 'canary_name', label: 'Group Name' },
  { value: 'name', label: 'Name' },
  { value: 'description', label: 'Description' },
  { value: 'type', label: 'Type' },
] as const;

const FIXED_GROUP_VALUES = new Set<string>(FIXED_GROUP_BY.map((g) => g.value));

export interface Choice {
  value: string;
  label: string;
}

export function groupByChoices(labelKeys: readonly string[]): Choice[] {
  return [
    ...FIXED_GROUP_BY,
    ...labelKeys.filter((k) => !FIXED_GROUP_VALUES.has(k)).map((k) => ({ value: k, label: k })),
  ];
}

export function tabByChoices(labelKeys: readonly string[]): Choice[] {
  return [
    { value: DEFAULT_TAB_BY, label: 'namespace' },
    ...labelKeys.filter((k) => k !== DEFAULT_TAB_BY && k !== AGENT_TAB_BY).map((k) => ({ value: k, label: k })),
    { value: AGENT_TAB_BY, label: 'Agent' },
  ];
}

/** The value a check groups under for a Group By choice ('' when it has none). */
export function groupValue(check: CheckSummary, groupBy: string): string {
  switch (groupBy) {
    case 'canary_name':
      return check.canary_name ?? '';
    case 'name':
      return check.name;
    case 'description':
      return check.description ?? '';
    case 'type':
      return check.type;
    default:
      return check.labels[groupBy] ?? '';
  }
}

export function agentName(check: CheckSummary): string {
  if (check.agent?.name) return check.agent.name;
  if (!check.agent_id || check.agent_id === LOCAL_AGENT_ID) return 'local';
  return check.agent_id;
}

/** Which tab a check belongs to for a Tab By choice. */
export function tabValue(check: CheckSummary, tabBy: string): string {
  if (tabBy === AGENT_TAB_BY) return agentName(check);
  if (tabBy === DEFAULT_TAB_BY) return check.namespace || NONE_TAB;
  return check.labels[tabBy] || NONE_TAB;
}

/** All, then the distinct values in name order. */
export function tabsFor(checks: readonly CheckSummary[], tabBy: string): string[] {
  const values = new Set<string>();
  for (const c of checks) values.add(tabValue(c, tabBy));
  return [ALL_TAB, ...[...values].sort((a, b) => a.localeCompare(b))];
}
