import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { runJob, pruneJobHistory } from '#server/jobs/job-history.ts';
import { closeRunsOfGoneProcesses } from '#server/jobs/processes.ts';

for (const driver of testDrivers()) {
  describe(`job history (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const row = async (id: string) =>
      (
        await db.query<Record<string, unknown>>(
          `SELECT status, success_count, error_count, duration_millis, details FROM job_history WHERE id = $1`,
          [id],
        )
      ).rows[0];

    it('records SUCCESS with counts and duration', async () => {
      const r = await runJob(db, { name: 'TestJob', resourceType: 'canary' }, async (ctx) => {
        await new Promise((res) => setTimeout(res, 30));
        ctx.success(3);
        ctx.details.summary = { added: 3 };
      });
      expect(r.status).toBe('SUCCESS');
      const h = await row(r.id);
      expect(h).toMatchObject({
        status: 'SUCCESS',
        success_count: 3,
        error_count: 0,
        details: { summary: { added: 3 } },
      });
      expect(Number(h.duration_millis)).toBeGreaterThanOrEqual(25);
    });

    it('records WARNING for partial failure and FAILED for a throw, with error details', async () => {
      const partial = await runJob(db, { name: 'TestJob' }, async (ctx) => {
        ctx.success();
        ctx.error(new Error('one bad'), 'item-7');
      });
      expect(await row(partial.id)).toMatchObject({
        status: 'WARNING',
        error_count: 1,
        details: { errors: { 'item-7': 'one bad' } },
      });
      const failed = await runJob(db, { name: 'TestJob' }, async () => {
        throw new Error('exploded');
      });
      expect(await row(failed.id)).toMatchObject({ status: 'FAILED', error_count: 1, details: { errors: 'exploded' } });
      const names = await db.query(`SELECT name FROM job_history_names WHERE name = 'TestJob'`);
      expect(names.rows).toHaveLength(1);
    });

    it('marks ownerless runs left RUNNING by a crash as STOPPED when asked, and prunes old rows', async () => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO job_history (name, status, time_start, created_at) VALUES ('Crashed', 'RUNNING', now() - interval '1 hour', now() - interval '40 days') RETURNING id`,
      );
      expect(await closeRunsOfGoneProcesses(db, 30_000, { ownerless: false })).toBe(0);
      expect((await row(rows[0].id)).status).toBe('RUNNING');
      expect(await closeRunsOfGoneProcesses(db, 30_000, { ownerless: true })).toBe(1);
      expect((await row(rows[0].id)).status).toBe('STOPPED');
      expect(await pruneJobHistory(db, 30)).toBeGreaterThanOrEqual(1);
      expect(await row(rows[0].id)).toBeUndefined();
    });
  });
}
