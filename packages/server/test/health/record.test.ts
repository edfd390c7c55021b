/* eslint-disable @typescript-eslint/no-explicit-any -- rows are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { testDrivers } from '../support/db.ts';
import type { Db } from '#server/db/index.ts';
import { recordResults, type RunResult } from '#server/health/record.ts';

/**
 * recordResults writes a canary run as one statement. What a check observed can be anything
 * (binary script output, a body with \0, huge JSON): it must never cost the other checks of the
 * run their results.
 */
for (const driver of testDrivers()) {
  describe(`recording check results (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    const ids: string[] = [];
    beforeAll(async () => {
      db = await driver.open();
      const canary = await db.query<{ id: string }>(
        `INSERT INTO canaries (name, spec) VALUES ('rec', '{}') RETURNING id`,
      );
      for (const name of ['a', 'b', 'c']) {
        const r = await db.query<{ id: string }>(
          `INSERT INTO checks (canary_id, type, name) VALUES ($1, 'exec', $2) RETURNING id`,
          [canary.rows[0].id, name],
        );
        ids.push(r.rows[0].id);
      }
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const result = (checkId: string, o: Partial<RunResult> = {}): RunResult => ({
      checkId,
      time: new Date(),
      duration: 5,
      pass: true,
      message: 'ok',
      error: null,
      detail: null,
      ...o,
    });
    const latest = async (checkId: string) =>
      (
        await db.query<any>(
          `SELECT status, message, error, detail FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 1`,
          [checkId],
        )
      ).rows[0];

    it('escapes NULs in messages, errors and details (keys too) and caps their size', async () => {
      await recordResults(
        db,
        [
          result(ids[0], { message: 'out\u0000put', detail: { stdout: 'x\u0000y', ['k\u0000']: ['\u0000'] } }),
          result(ids[1], { pass: false, message: null, error: 'e'.repeat(10_000) + '\u0000' }),
          result(ids[2], { detail: { blob: 'z'.repeat(200_000) } }),
        ],
        null,
      );
      expect(await latest(ids[0])).toEqual({
        status: true,
        message: 'out\\0put',
        error: null,
        detail: { stdout: 'x\\0y', 'k\\0': ['\\0'] },
      });
      const b = await latest(ids[1]);
      expect(b.status).toBe(false);
      expect(b.error).toHaveLength(4000);
      expect(b.error.endsWith('…')).toBe(true);
      expect((await latest(ids[2])).detail).toEqual({ truncated: true, size: expect.any(Number) });
    });

    it('stores the other results when the database refuses one, and says which it could not store', async () => {
      const before = await latest(ids[0]);
      const unknown = randomUUID(); // no such check: the foreign key refuses its row
      await expect(
        recordResults(db, [result(ids[0], { message: 'still stored' }), result(unknown)], null),
      ).rejects.toThrow(new RegExp(`results not stored: check ${unknown}`));
      const after = await latest(ids[0]);
      expect(after.message).toBe('still stored');
      expect(after).not.toEqual(before);
    });
  });
}
