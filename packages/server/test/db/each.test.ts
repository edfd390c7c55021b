import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import type { Db } from '#server/db/index.ts';

/** db.each: a read handed over row by row (the health summary renders 5,000 checks this way). */
describe.each(testDrivers())('db.each on $name', (driver) => {
  let db: Db & { dispose(): Promise<void> };
  beforeAll(async () => {
    db = await driver.open({ migrations: false });
  });
  afterAll(async () => {
    await db.dispose();
  });

  it('hands over every row in the statement order, with bound parameters and the drivers’ conversions', async () => {
    const seen: { n: number; label: string; big: number; at: string }[] = [];
    const sql = `SELECT g AS n, $1::text || g AS label, g::int8 * 1000000000 AS big, timestamptz '2026-11-25 10:00:00+00' AS at
                 FROM generate_series(1, $2::int) g ORDER BY g DESC`;
    // the same text several times: the pg driver prepares it from the third time on
    for (let round = 0; round < 4; round++) {
      seen.length = 0;
      const count = await db.each<{ n: number; label: string; big: number; at: string }>(sql, ["it's ", 2500], (row) =>
        seen.push(row),
      );
      expect(count).toBe(2500);
      expect(seen).toHaveLength(2500);
      expect(seen[0]).toEqual({
        n: 2500,
        label: "it's 2500",
        big: 2_500_000_000_000,
        at: expect.stringMatching(/^2026-11-25 10:00:00\+00/),
      });
      expect(seen.at(-1)!.n).toBe(1);
    }
  });

  it('rejects with the error onRow threw, stops handing over rows, and leaves the database usable', async () => {
    let calls = 0;
    const failing = db.each(`SELECT g FROM generate_series(1, 1000) g`, [], () => {
      calls++;
      if (calls === 3) throw new Error('renderer broke');
    });
    await expect(failing).rejects.toThrow('renderer broke');
    expect(calls).toBe(3);
    // the connection went back to the pool in a usable state
    for (let i = 0; i < 30; i++)
      expect((await db.query<{ one: number }>(`SELECT 1 AS one`)).rows).toEqual([{ one: 1 }]);
  });

  it('rejects with the database error of a bad statement', async () => {
    await expect(db.each(`SELECT * FROM no_such_table WHERE id = $1`, [1], () => {})).rejects.toMatchObject({
      code: '42P01',
    });
    expect((await db.query<{ one: number }>(`SELECT 1 AS one`)).rows).toEqual([{ one: 1 }]);
  });
});
