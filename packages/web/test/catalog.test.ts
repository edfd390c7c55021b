// The catalog's rules without a browser (seed 002 sections 2.3-2.6 and 9): cost and count
// display, tag entries, the diff's line kinds, message truncation, the last-scraped warning and
// the relationship graph's grouping and layout.
import { describe, expect, it } from 'vitest';
import {
  costDeviation,
  diffLines,
  formatChangesCount,
  formatCost,
  labelsByPrefix,
  parseTagEntry,
  sortKeys,
  tagEntry,
} from '../src/features/catalog/lib/format.ts';
import { buildGraph, type GraphConfig, type GraphLink } from '../src/features/catalog/lib/graph.ts';
import { jsonPairFilters, splitTriState } from '../src/features/catalog/lib/filters.ts';

describe('catalog display rules', () => {
  it('shows a cost with 2 decimals up to 10 and none above', () => {
    expect(formatCost(3.456)).toBe('$3.46');
    expect(formatCost(10)).toBe('$10.00');
    expect(formatCost(10.4)).toBe('$10');
    expect(formatCost(1234.5)).toBe('$1,235');
    expect(formatCost(null)).toBe('');
  });

  it('flags the 30-day cost when the 1-day cost strays more than 10% from the daily average', () => {
    expect(costDeviation(2, 30)).toEqual({ percent: 100, up: true });
    expect(costDeviation(0.5, 30)).toEqual({ percent: 50, up: false });
    expect(costDeviation(1.1, 30)).toBeUndefined();
    expect(costDeviation(1, 0)).toBeUndefined();
  });

  it('highlights 500 or more changes and reads k+ above 999', () => {
    expect(formatChangesCount(499)).toEqual({ text: '499', highlight: false });
    expect(formatChangesCount(500)).toEqual({ text: '500', highlight: true });
    expect(formatChangesCount(999)).toEqual({ text: '999', highlight: true });
    expect(formatChangesCount(1000)).toEqual({ text: '1k+', highlight: true });
    expect(formatChangesCount(25_300)).toEqual({ text: '25k+', highlight: true });
  });

  it('encodes tag filters as key____value', () => {
    expect(tagEntry('namespace', 'shop')).toBe('namespace____shop');
    expect(parseTagEntry('app.kubernetes.io/name____web')).toEqual({ key: 'app.kubernetes.io/name', value: 'web' });
    expect(parseTagEntry('novalue')).toBeUndefined();
    expect(splitTriState('a:1,b:-1')).toEqual({ include: ['a'], exclude: ['b'] });
    // included pairs must match; excluded ones differ or are missing; odd keys are quoted
    expect(jsonPairFilters('tags', 'namespace____shop:1,app.kubernetes.io/name____web:-1')).toEqual({
      eq: [['tags->>namespace', 'shop']],
      notEqOr: ['tags->>"app.kubernetes.io/name".neq."web",tags->>"app.kubernetes.io/name".is.null'],
    });
  });

  it('sorts a body by key, recursively, and groups labels by prefix', () => {
    expect(JSON.stringify(sortKeys({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 2 } }))).toBe(
      '{"a":{"c":2,"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(labelsByPrefix({ 'app.kubernetes.io/name': 'web', team: 'a', 'app.kubernetes.io/part-of': 'shop' })).toEqual(
      [
        [
          'app.kubernetes.io',
          [
            ['name', 'web'],
            ['part-of', 'shop'],
          ],
        ],
        ['', [['team', 'a']]],
      ],
    );
  });

  it('reads a unified diff line by line', () => {
    const kinds = diffLines('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n').map((l) => l.kind);
    expect(kinds).toEqual(['header', 'header', 'hunk', 'context', 'remove', 'add']);
    expect(diffLines(null)).toEqual([]);
  });
});

describe('relationship graph', () => {
  const config = (id: string, type: string): GraphConfig => ({
    id,
    name: id,
    type,
    status: null,
    health: 'healthy',
    deleted_at: null,
    tags: null,
  });
  const link = (from: string, to: string, manual = false): GraphLink => ({ from, to, relation: '', manual });

  it('groups 3 or more configs of one type under one node; 3 start open, 4 start closed', () => {
    const three = [config('root', 'Deployment'), ...[1, 2, 3].map((i) => config(`pod${i}`, 'Pod'))];
    const g3 = buildGraph(
      'root',
      three,
      [1, 2, 3].map((i) => link('root', `pod${i}`)),
      new Set(),
      'horizontal',
    );
    const group3 = g3.nodes.find((n) => n.data.kind === 'group');
    expect(group3?.data).toMatchObject({ kind: 'group', count: 3, expanded: true });
    expect(g3.nodes.filter((n) => n.data.kind === 'config')).toHaveLength(4);

    const four = [...three, config('pod4', 'Pod')];
    const links = [1, 2, 3, 4].map((i) => link('root', `pod${i}`));
    const g4 = buildGraph('root', four, links, new Set(), 'horizontal');
    const group4 = g4.nodes.find((n) => n.data.kind === 'group')!;
    expect(group4.data).toMatchObject({ count: 4, expanded: false });
    expect(g4.nodes.filter((n) => n.data.kind === 'config').map((n) => n.id)).toEqual(['root']);
    expect(g4.edges.map((e) => `${e.source}>${e.target}`)).toEqual([`root>${group4.id}`]);

    // a click toggles it: the four pods hang from the group
    const open = buildGraph('root', four, links, new Set([group4.id]), 'horizontal');
    expect(open.nodes.filter((n) => n.data.kind === 'config')).toHaveLength(5);
    expect(open.edges.filter((e) => e.source === group4.id)).toHaveLength(4);
  });

  it('keeps two of a type ungrouped, survives cycles and lays out left to right or top to bottom', () => {
    const configs = [config('a', 'Deployment'), config('b', 'Service'), config('c', 'Service')];
    const links = [link('a', 'b'), link('b', 'c'), link('c', 'a', true)];
    const h = buildGraph('a', configs, links, new Set(), 'horizontal');
    expect(h.nodes.every((n) => n.data.kind === 'config')).toBe(true);
    expect(h.nodes).toHaveLength(3);
    expect(h.edges.some((e) => e.manual)).toBe(true);
    const x = (id: string, g = h) => g.nodes.find((n) => n.id === id)!.position;
    expect(x('b').x).toBeGreaterThan(x('a').x);
    const v = buildGraph('a', configs, links, new Set(), 'vertical');
    expect(x('b', v).y).toBeGreaterThan(x('a', v).y);
  });
});
