// @vitest-environment jsdom
// The topology dashboard's rules that need no server: seed 002 section 9's formats and sizes,
// the summary rows, the drill-down link, the breadcrumb's ancestors, what /topology/{id} shows,
// and the listing query a dashboard URL (with the stored sort) asks for.
import { afterEach, describe, expect, it } from 'vitest';
import type { TopologyComponent, TopologyResponse } from '@watchdeck/core';
import { formatCurrency, formatPropertyValue, formatUptime, isUsageHigh } from '../src/features/topology/lib/format.ts';
import { summaryRows } from '../src/features/topology/lib/summary.ts';
import { drillDownPath, incidentsPath, insightsPath } from '../src/features/topology/lib/links.ts';
import { sizeForWidth } from '../src/features/topology/components/topology-card.tsx';
import { ancestorIds } from '../src/features/topology/components/breadcrumb.tsx';
import { cardsFor, findComponent } from '../src/features/topology/api/topology.ts';
import { topologySearch } from '../src/features/topology/api/params.ts';
import { dashboardParams } from '../src/features/topology/api/preload.ts';

describe('topology formats (seed 002 section 9)', () => {
  it('abbreviates currency with k above 1000, 2 decimals at 10 or less, none above', () => {
    expect(formatCurrency(1234.5)).toBe('$1.2k');
    expect(formatCurrency(25000)).toBe('$25k');
    expect(formatCurrency(1000)).toBe('$1000');
    expect(formatCurrency(9.5)).toBe('$9.50');
    expect(formatCurrency(10)).toBe('$10.00');
    expect(formatCurrency(10.4)).toBe('$10');
    expect(formatCurrency(999.6)).toBe('$1000');
  });

  it('shows uptime to 2 decimals', () => {
    expect(formatUptime(99.456)).toBe('99.46%');
    expect(formatPropertyValue({ name: 'Uptime', value: 100 })).toBe('100.00%');
  });

  it('formats properties by type and marks usage above 70% of the max', () => {
    expect(formatPropertyValue({ name: 'cost', type: 'currency', value: 4.2 })).toBe('$4.20');
    expect(formatPropertyValue({ name: 'mem', value: 2048, unit: 'bytes' })).toBe('2 KiB');
    expect(formatPropertyValue({ name: 'cpu', value: 250, unit: 'millicores' })).toBe('250m');
    expect(formatPropertyValue({ name: 'owner', text: 'sre' })).toBe('sre');
    expect(isUsageHigh({ name: 'mem', value: 71, max: 100 })).toBe(true);
    expect(isUsageHigh({ name: 'mem', value: 70, max: 100 })).toBe(false);
    expect(isUsageHigh({ name: 'mem', value: 99 })).toBe(false);
  });

  it('picks the card size a width holds (small 198, medium 258, large 356, extra_large 554)', () => {
    expect(sizeForWidth(198)).toBe('small');
    expect(sizeForWidth(250)).toBe('small');
    expect(sizeForWidth(258)).toBe('medium');
    expect(sizeForWidth(400)).toBe('large');
    expect(sizeForWidth(554)).toBe('extra_large');
    expect(sizeForWidth(768)).toBe('extra_large');
  });
});

describe('summary rows', () => {
  it('merges medium and low, and sorts by red then orange counts', () => {
    const rows = summaryRows({
      security: { low: 2, medium: 1 },
      cost: { critical: 1, info: 4 },
      availability: { high: 1, medium: 3 },
    });
    expect(rows.map((r) => r.type)).toEqual(['availability', 'cost', 'security']);
    expect(rows[2]).toMatchObject({ red: 0, orange: 3, orangeSeverity: 'medium' });
    expect(rows[1]).toMatchObject({ red: 1, redSeverity: 'critical', gray: 4, graySeverity: 'info' });
    expect(summaryRows(undefined)).toEqual([]);
    expect(summaryRows({ empty: { high: 0 } })).toEqual([]);
  });
});

describe('links', () => {
  it('drills down carrying the query and the referer', () => {
    const q = new URLSearchParams('status=unhealthy&sortBy=name&refererId=old');
    expect(drillDownPath('c2', q, 'c1')).toBe('/topology/c2?status=unhealthy&sortBy=name&refererId=c1');
    expect(drillDownPath('c1', new URLSearchParams('refererId=old'))).toBe('/topology/c1');
    expect(insightsPath('c1', 'security', 'high')).toBe('/catalog/insights?component=c1&type=security&severity=high');
    expect(incidentsPath('c1', 'availability', 'medium')).toBe(
      '/incidents?type=availability&component=c1&severity=medium',
    );
  });

  it('builds the breadcrumb from the path ancestors', () => {
    expect(ancestorIds('a.b.c', 'c')).toEqual(['a', 'b']);
    expect(ancestorIds('a.b', 'c')).toEqual(['a', 'b']);
    expect(ancestorIds('', 'a')).toEqual([]);
  });
});

const comp = (id: string, components?: TopologyComponent[]) => ({ id, name: id, components }) as TopologyComponent;
const answer = (components: TopologyComponent[]): TopologyResponse => ({
  components,
  teams: [],
  types: [],
  healthStatuses: [],
});

describe('what /topology/{id} shows', () => {
  it('the roots, a component with its children nested, or the flat matches beside it', () => {
    expect(cardsFor(answer([comp('a'), comp('b')]), undefined).cards.map((c) => c.id)).toEqual(['a', 'b']);
    const nested = cardsFor(answer([comp('a', [comp('a1'), comp('a2')])]), 'a');
    expect(nested.self?.id).toBe('a');
    expect(nested.cards.map((c) => c.id)).toEqual(['a1', 'a2']);
    const flat = cardsFor(answer([comp('a'), comp('a1'), comp('a2')]), 'a');
    expect(flat.cards.map((c) => c.id)).toEqual(['a1', 'a2']);
    expect(findComponent([comp('a', [comp('b', [comp('c')])])], 'c')?.id).toBe('c');
    expect(cardsFor(answer([]), 'x')).toEqual({ self: undefined, cards: [] });
  });
});

describe('the listing query of a dashboard URL', () => {
  afterEach(() => window.localStorage.clear());

  it('drops All, lists flat when a type is chosen, and uses the stored sort without URL params', () => {
    window.localStorage.setItem('watchdeck.topologyCardsSortByStandard', JSON.stringify('name'));
    window.localStorage.setItem('watchdeck.topologyCardsSortOrder', JSON.stringify('desc'));
    window.localStorage.setItem('watchdeck.topologyShowHidden', JSON.stringify(true));
    const p = dashboardParams('c1', new URLSearchParams('status=All&type=Service'));
    expect(topologySearch(p)).toBe('id=c1&type=Service&sortBy=name&sortOrder=desc&flatten=true&hidden=true');
    window.localStorage.setItem('watchdeck.topologyCardsSortByCustom', JSON.stringify('cost'));
    expect(topologySearch(dashboardParams(undefined, new URLSearchParams('sortOrder=asc')))).toBe(
      'sortBy=cost&sortOrder=asc&hidden=true',
    );
    window.localStorage.clear();
    expect(topologySearch(dashboardParams(undefined, new URLSearchParams()))).toBe('sortBy=status&sortOrder=asc');
  });
});
