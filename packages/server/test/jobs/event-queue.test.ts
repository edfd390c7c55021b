import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { EventQueue, publishEvent } from '../../src/jobs/event-queue.ts';

for (const driver of testDrivers()) {
  describe(`event queue (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
    });
    afterAll(async () => {
      await db?.dispose();
    });

    it('publishes once per (name, event id) and handles each event once', async () => {
      expect(await publishEvent(db, 'test.once', 'a', { n: 1 })).toBe(true);
      expect(await publishEvent(db, 'test.once', 'a', { n: 2 })).toBe(false);
      await publishEvent(db, 'test.once', 'b');
      const seen: string[] = [];
      const q = new EventQueue(db, { pollMs: 20 });
      q.on('test.once', async (e) => void seen.push(e.event_id));
      q.start(3);
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(2);
      await q.stop();
      expect(seen.sort()).toEqual(['a', 'b']);
      const left = await db.query(`SELECT count(*)::int AS n FROM event_queue WHERE name = 'test.once'`);
      expect(left.rows[0]).toEqual({ n: 0 });
    });

    it('retries a failing handler with backoff and dead-letters it after the last attempt', async () => {
      await publishEvent(db, 'test.fail', 'x');
      const attemptsAt: number[] = [];
      const q = new EventQueue(db, { pollMs: 10, maxAttempts: 3, baseBackoffMs: 150 });
      q.on('test.fail', async () => {
        attemptsAt.push(Date.now());
        throw new Error('boom');
      });
      q.start(1);
      await expect.poll(() => attemptsAt.length, { timeout: 5000 }).toBe(3);
      await new Promise((r) => setTimeout(r, 400));
      await q.stop();
      expect(attemptsAt).toHaveLength(3); // no fourth attempt once dead
      // exponential: the second gap (300 ms) is at least the first (150 ms) doubled, minus slack
      expect(attemptsAt[1] - attemptsAt[0]).toBeGreaterThanOrEqual(140);
      expect(attemptsAt[2] - attemptsAt[1]).toBeGreaterThanOrEqual(280);
      const row = await db.query<{ status: string; attempts: number; error: string }>(
        `SELECT status, attempts, error FROM event_queue WHERE name = 'test.fail'`,
      );
      expect(row.rows[0]).toMatchObject({ status: 'failed', attempts: 3, error: 'boom' });
      const summary = await db.query<{ name: string; failed: number }>(
        `SELECT name, failed::int AS failed FROM event_queue_summary WHERE name = 'test.fail'`,
      );
      expect(summary.rows[0]).toMatchObject({ name: 'test.fail', failed: 1 });
    });

    it('rolls back a failed handler\'s writes', async () => {
      await db.exec('CREATE TABLE IF NOT EXISTS eq_side_effects (v text)');
      await publishEvent(db, 'test.rollback', 'r');
      const q = new EventQueue(db, { pollMs: 10, maxAttempts: 1 });
      let calls = 0;
      q.on('test.rollback', async (_e, tx) => {
        calls++;
        await tx.query(`INSERT INTO eq_side_effects VALUES ('written')`);
        throw new Error('after write');
      });
      q.start(1);
      await expect.poll(() => calls, { timeout: 5000 }).toBe(1);
      await q.stop();
      const r = await db.query(`SELECT count(*)::int AS n FROM eq_side_effects`);
      expect(r.rows[0]).toEqual({ n: 0 });
    });
  });
}
