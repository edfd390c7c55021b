import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The dependency set agrees with the root package.json's `engines.node`: every package that
 * package-lock.json installs accepts the oldest Node version the field allows (npm prints
 * EBADENGINE otherwise, and .ci/run fails on that). The ranges in the lock are npm's node-semver
 * ranges; the subset they use is read here: `||` alternatives of comparators (>=, >, <=, <, =),
 * carets, tildes and x-ranges ('20', '10.*', '>= 10.x').
 */
type Version = [number, number, number];

function parse(v: string): { version: Version; parts: number } {
  const nums = v
    .replace(/^[v=]/, '')
    .split('.')
    .filter((p) => p !== '' && p !== '*' && p.toLowerCase() !== 'x')
    .map(Number);
  if (nums.some((n) => !Number.isInteger(n))) throw new Error(`not a version: ${v}`);
  return { version: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], parts: nums.length };
}

const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The exclusive upper bound of an x-range with `parts` numbers given ('20' -> 21.0.0). */
function next(v: Version, parts: number): Version {
  if (parts <= 1) return [v[0] + 1, 0, 0];
  if (parts === 2) return [v[0], v[1] + 1, 0];
  return [v[0], v[1], v[2] + 1];
}

function comparator(op: string, text: string, v: Version): boolean {
  const { version: r, parts } = parse(text);
  switch (op) {
    case '>=':
      return cmp(v, r) >= 0;
    case '>':
      return parts < 3 ? cmp(v, next(r, parts)) >= 0 : cmp(v, r) > 0;
    case '<=':
      return parts < 3 ? cmp(v, next(r, parts)) < 0 : cmp(v, r) <= 0;
    case '<':
      return cmp(v, r) < 0;
    case '^': {
      const upper: Version =
        r[0] > 0 || parts === 1 ? [r[0] + 1, 0, 0] : r[1] > 0 || parts === 2 ? [0, r[1] + 1, 0] : [0, 0, r[2] + 1];
      return cmp(v, r) >= 0 && cmp(v, upper) < 0;
    }
    case '~':
      return cmp(v, r) >= 0 && cmp(v, parts === 1 ? [r[0] + 1, 0, 0] : [r[0], r[1] + 1, 0]) < 0;
    default: // a bare version or x-range
      return cmp(v, r) >= 0 && (parts === 3 ? cmp(v, r) === 0 : cmp(v, next(r, parts)) < 0);
  }
}

function satisfies(version: string, range: string): boolean {
  const v = parse(version).version;
  return range.split('||').some((alt) => {
    // '>= 10' is one comparator: join an operator with the version after it
    const tokens = alt
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return tokens.every((t) => {
      const m = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(t)!;
      return comparator(m[1] === '=' ? '' : (m[1] ?? ''), m[2], v);
    });
  });
}

const root = fileURLToPath(new URL('../../../', import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(root + path, 'utf8')) as Record<string, unknown>;

describe('dependencies and the engines field', () => {
  it('reads the ranges npm uses', () => {
    expect(satisfies('20.19.0', '>=20.19')).toBe(true);
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '>= 10.x')).toBe(true);
    expect(satisfies('20.19.0', '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.19.0', '^20.19.1 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('20.19.0', '10.* || >= 12.*')).toBe(true);
    expect(satisfies('20.19.0', '>=16 || 14 >=14.17')).toBe(true);
    expect(satisfies('20.19.0', '~20.18.0')).toBe(false);
    expect(satisfies('20.19.0', '<20')).toBe(false);
  });

  it('every package in package-lock.json accepts the oldest Node version engines.node allows', () => {
    const floor = /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(String((json('package.json').engines as { node: string }).node));
    expect(floor, 'engines.node is a lower bound (>=x.y)').not.toBeNull();
    const oldest = parse(floor![1]).version.join('.');
    const packages = json('package-lock.json').packages as Record<string, { version?: string; engines?: unknown }>;
    const refusing = Object.entries(packages)
      .filter(([, p]) => p.engines && typeof p.engines === 'object' && !Array.isArray(p.engines) && 'node' in p.engines)
      .map(([path, p]) => ({ path, version: p.version, node: String((p.engines as { node: unknown }).node) }))
      .filter((p) => !satisfies(oldest, p.node));
    expect(refusing).toEqual([]);
  });
});
