import { describe, expect, it } from 'vitest';
import { evaluate } from '#server/cel/index.ts';
import { DOUBLING, NESTED } from './expressions.ts';

/**
 * Issue 12 point 5: CEL is evaluated on the event loop, so an expression must not be able to run
 * for long. A short expression that nests comprehensions over list literals asks for 10^7
 * iterations (it took ~10 s before the limits); one that repeats a string inside each level builds
 * a gigabyte. Both now stop with a limit error within about a second at most.
 */
const timed = (expr: string, vars: Record<string, unknown> = {}) => {
  const started = performance.now();
  let error: Error | undefined;
  try {
    evaluate(expr, vars);
  } catch (err) {
    error = err as Error;
  }
  return { error, ms: performance.now() - started };
};

describe('CEL cost limits', () => {
  it('stops nested comprehensions with a limit error, not a stall', () => {
    expect(NESTED.length).toBeLessThan(307);
    const { error, ms } = timed(NESTED);
    expect(error?.message).toMatch(/stopped: it (took more than 500,000 steps|ran longer than 1000 ms)$/);
    expect(ms).toBeLessThan(5000);
  });

  it('stops an expression that builds a huge string', () => {
    const { error, ms } = timed(DOUBLING);
    expect(error?.message).toMatch(/stopped: it built a value larger than 2,000,000 characters or elements$/);
    expect(ms).toBeLessThan(5000);
  });

  it('counts the iterations over input data as well (a large list given as a variable)', () => {
    const items = Array.from({ length: 2000 }, (_, i) => i);
    const { error } = timed('items.all(a, items.all(b, a + b >= 0))', { items });
    expect(error?.message).toMatch(/stopped: it (took more than|ran longer than)/);
    // one level over the same data is well within the limits
    expect(evaluate('items.all(a, a >= 0) && items.map(a, a * 2.0).size() == 2000', { items })).toBe(true);
  });

  it('leaves the results of ordinary expressions as they were, errors included', () => {
    expect(evaluate('[1, 2, 3].map(x, x * 2) == [2, 4, 6]', {})).toBe(true);
    expect(evaluate('{"a": 1}.exists(k, k == "a") && "abc".matches("^a")', {})).toBe(true);
    // exists() absorbs an error in one element when another is true
    expect(evaluate('[1, "a"].exists(x, x == 1 || x > 0)', {})).toBe(true);
    expect(evaluate('has(o.missing) ? o.missing : o.name + "!"', { o: { name: 'db' } })).toBe('db!');
    expect(
      evaluate('o.items.filter(i, i.ok).map(i, i.name)', {
        o: {
          items: [
            { ok: true, name: 'a' },
            { ok: false, name: 'b' },
          ],
        },
      }),
    ).toEqual(['a']);
    expect(() => evaluate('1 / 0 == 1', {})).toThrow(/" failed: /);
    expect(() => evaluate('nope(1)', {})).toThrow(/unbound function: nope/);
  });
});
