import { CHANGES_HIGHLIGHT_AT } from './constants.ts';

/** A cost: 2 decimals when 10 or less, none above (seed 002 section 9). */
export function formatCost(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (n === null || n === undefined || !Number.isFinite(n) || n === 0) return '';
  return `$${n <= 10 ? n.toFixed(2) : Math.round(n).toLocaleString('en-US')}`;
}

/**
 * The 30-day cost's badge: how far the 1-day cost is from the 30-day daily average, when it is
 * more than 10% (red up, green down); undefined otherwise.
 */
export function costDeviation(
  cost1d: number | string | null | undefined,
  cost30d: number | string | null | undefined,
): { percent: number; up: boolean } | undefined {
  const day = Number(cost1d ?? 0);
  const month = Number(cost30d ?? 0);
  if (!Number.isFinite(day) || !Number.isFinite(month) || month <= 0) return undefined;
  const average = month / 30;
  const delta = (day - average) / average;
  // compared in whole percent: $1.10 against a $1 average is 10%, not 10.000000000000009%
  const percent = Math.round(Math.abs(delta) * 100);
  if (percent <= 10) return undefined;
  return { percent, up: delta > 0 };
}

/** A changes count: above 999 as k+; highlighted at 500 or more. */
export function formatChangesCount(n: number | null | undefined): { text: string; highlight: boolean } {
  const count = Number(n ?? 0);
  return {
    text: count > 999 ? `${Math.floor(count / 1000)}k+` : String(count),
    highlight: count >= CHANGES_HIGHLIGHT_AT,
  };
}

/** A tag filter entry: key____value (seed 002 section 2.4). */
const TAG_SEPARATOR = '____';
export const tagEntry = (key: string, value: string) => `${key}${TAG_SEPARATOR}${value}`;
export function parseTagEntry(entry: string): { key: string; value: string } | undefined {
  const i = entry.indexOf(TAG_SEPARATOR);
  if (i <= 0) return undefined;
  return { key: entry.slice(0, i), value: entry.slice(i + TAG_SEPARATOR.length) };
}

/** 'Kubernetes::Pod' reads 'Pod' with its provider kept for the breadcrumb. */
export function typeLabel(type: string | null | undefined): string {
  if (!type) return '';
  const parts = type.split('::');
  return parts[parts.length - 1];
}

/** Labels grouped by prefix ('app.kubernetes.io/name' under 'app.kubernetes.io'). */
export function labelsByPrefix(labels: Record<string, string> | null | undefined): [string, [string, string][]][] {
  const groups = new Map<string, [string, string][]>();
  for (const [k, v] of Object.entries(labels ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const slash = k.indexOf('/');
    const prefix = slash > 0 ? k.slice(0, slash) : '';
    const list = groups.get(prefix) ?? [];
    list.push([slash > 0 ? k.slice(slash + 1) : k, String(v)]);
    groups.set(prefix, list);
  }
  return [...groups.entries()];
}

/** A config body with its keys sorted, recursively (the Config tab's default view). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

export type DiffLineKind = 'add' | 'remove' | 'hunk' | 'header' | 'context';

/** A unified diff's lines with their kind, for colouring. */
export function diffLines(diff: string | null | undefined): { kind: DiffLineKind; text: string }[] {
  if (!diff) return [];
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((text) => {
      if (text.startsWith('+++') || text.startsWith('---') || text.startsWith('Index:') || text.startsWith('====='))
        return { kind: 'header' as const, text };
      if (text.startsWith('@@')) return { kind: 'hunk' as const, text };
      if (text.startsWith('+')) return { kind: 'add' as const, text };
      if (text.startsWith('-')) return { kind: 'remove' as const, text };
      return { kind: 'context' as const, text };
    });
}
