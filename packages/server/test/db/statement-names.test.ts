import { describe, expect, it } from 'vitest';
import { StatementNames } from '#server/db/pg-driver.ts';

describe('prepared statement naming', () => {
  it('prepares a parameterised text once it repeats, always under the same name', () => {
    const s = new StatementNames(3, 10);
    const text = 'SELECT * FROM people WHERE id = $1';
    expect(s.nameFor(text, true)).toBeUndefined();
    expect(s.nameFor(text, true)).toBeUndefined();
    const name = s.nameFor(text, true);
    expect(name).toMatch(/^wd_[0-9a-f]{20}$/);
    expect(s.nameFor(text, true)).toBe(name);
    expect(s.nameFor('SELECT * FROM teams WHERE id = $1', true)).toBeUndefined();
  });

  it('never prepares texts without parameters (they may hold several statements)', () => {
    const s = new StatementNames(1, 10);
    expect(s.nameFor('BEGIN', false)).toBeUndefined();
    expect(s.nameFor('SELECT 1; SELECT 2', false)).toBeUndefined();
  });

  it('stops preparing new texts at the cap', () => {
    const s = new StatementNames(1, 2);
    expect(s.nameFor('SELECT $1::int', true)).toBeDefined();
    expect(s.nameFor('SELECT $1::text', true)).toBeDefined();
    expect(s.nameFor('SELECT $1::uuid', true)).toBeUndefined();
    expect(s.nameFor('SELECT $1::int', true)).toBeDefined();
  });
});
