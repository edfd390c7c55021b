import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { EventQueue, publish, type ConsumedEvent } from '#server/jobs/event-queue.ts';

/** The event bus's mechanics (jobs/README.md), on PGlite and PostgreSQL. */
for (const driver of testDrivers()) {
  describe(`event queue (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const deliveries = async (name: string) =>
      (
        await db.query<{ consumer: string; status: string; attempts: number; error: string | null }>(
          `SELECT d.consumer, d.status, d.attempts, d.error FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
           WHERE e.name = $1 ORDER BY d.consumer, e.event_id`,
          [name],
        )
      ).rows;

    it('does not store an event nobody consumes, in TypeScript or SQL', async () => {
      expect(await publish(db, 'test.unheard', 'a')).toBeNull();
      expect((await db.query(`SELECT publish_event('test.unheard', 'b', '{}') AS id`)).rows[0]).toEqual({ id: null });
      // a component that turns unhealthy publishes from a trigger: nobody consumes it here either
      await db.query(`INSERT INTO components (name, type, status) VALUES ('orders', 'service', 'unhealthy')`);
      expect((await db.query(`SELECT count(*)::int AS n FROM event_queue`)).rows[0]).toEqual({ n: 0 });

      const q = new EventQueue(db);
      q.consume('test.listener', ['test.unheard'], async () => {});
      await q.register();
      expect(await publish(db, 'test.unheard', 'c')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await deliveries('test.unheard')).toEqual([
        { consumer: 'test.listener', status: 'pending', attempts: 0, error: null },
      ]);
      expect(await q.drain()).toBe(1);
      expect(await deliveries('test.unheard')).toMatchObject([{ status: 'done', attempts: 1 }]);
    });

    it('refuses a consumer name taken in this process', () => {
      const q = new EventQueue(db);
      q.consume('test.taken', ['test.x'], async () => {});
      expect(() => q.consume('test.taken', ['test.y'], async () => {})).toThrow(
        'the event consumer "test.taken" is already registered',
      );
    });

    it('publishes once per (name, resource id) and delivers each event once to each consumer', async () => {
      const seen: Record<string, string[]> = { a: [], b: [] };
      const q = new EventQueue(db, { pollMs: 20 });
      q.consume('test.a', ['test.once'], async (e) => void seen.a.push(e.resourceId));
      q.consume('test.b', ['test.once', 'test.other'], async (e) => void seen.b.push(e.resourceId));
      await q.register();
      expect(await publish(db, 'test.once', 'x', { n: 1 })).not.toBeNull();
      expect(await publish(db, 'test.once', 'x', { n: 2 })).toBeNull();
      await publish(db, 'test.once', 'y');
      await publish(db, 'test.other', 'z');
      await q.start(3);
      await expect.poll(() => seen.a.length + seen.b.length, { timeout: 5000 }).toBe(5);
      await new Promise((r) => setTimeout(r, 200));
      await q.stop();
      expect(seen.a.sort()).toEqual(['x', 'y']);
      expect(seen.b.sort()).toEqual(['x', 'y', 'z']);
      expect((await deliveries('test.once')).map((d) => [d.consumer, d.status, d.attempts])).toEqual([
        ['test.a', 'done', 1],
        ['test.a', 'done', 1],
        ['test.b', 'done', 1],
        ['test.b', 'done', 1],
      ]);
    });

    it('retries a failing consumer with backoff while the other finishes once, and dead-letters it after the last attempt', async () => {
      const at: number[] = [];
      let steady = 0;
      const q = new EventQueue(db, { pollMs: 10 });
      q.consume(
        'test.flaky',
        ['test.fail'],
        async () => {
          at.push(Date.now());
          throw new Error('boom');
        },
        { maxAttempts: 3, backoff: { baseMs: 150 } },
      );
      q.consume('test.steady', ['test.fail'], async () => void steady++);
      await q.register();
      await publish(db, 'test.fail', 'x');
      await q.start(2);
      await expect.poll(() => at.length, { timeout: 5000 }).toBe(3);
      await new Promise((r) => setTimeout(r, 400));
      await q.stop();
      expect(at).toHaveLength(3); // no fourth attempt once dead
      expect(steady).toBe(1);
      // exponential: 150 ms, then 300 ms (minus timer slack)
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(140);
      expect(at[2] - at[1]).toBeGreaterThanOrEqual(280);
      expect(await deliveries('test.fail')).toEqual([
        { consumer: 'test.flaky', status: 'failed', attempts: 3, error: 'boom' },
        { consumer: 'test.steady', status: 'done', attempts: 1, error: null },
      ]);
    });

    it("rolls back a failed consumer's writes, and commits them with done()", async () => {
      await db.exec('CREATE TABLE IF NOT EXISTS eq_side_effects (v text)');
      let calls = 0;
      const q = new EventQueue(db);
      q.consume(
        'test.writer',
        ['test.write'],
        async (e, { done }) => {
          calls++;
          await done(async (tx) => {
            await tx.query(`INSERT INTO eq_side_effects VALUES ($1)`, [`${e.resourceId}#${e.attempt}`]);
            if (e.resourceId === 'bad' && e.attempt === 1) throw new Error('after write');
          });
        },
        { backoff: { baseMs: 0 } },
      );
      await q.register();
      await publish(db, 'test.write', 'good');
      await publish(db, 'test.write', 'bad');
      expect(await q.drain()).toBe(3);
      expect(calls).toBe(3);
      const r = await db.query<{ v: string }>(`SELECT v FROM eq_side_effects ORDER BY v`);
      expect(r.rows.map((x) => x.v)).toEqual(['bad#2', 'good#1']);
      expect((await deliveries('test.write')).map((d) => [d.status, d.attempts, d.error])).toEqual([
        ['done', 2, 'after write'],
        ['done', 1, null],
      ]);
    });

    it('takes over a delivery whose worker died (its lease ran out), and drops the late result of one that outlived its lease', async () => {
      await db.exec('CREATE TABLE IF NOT EXISTS eq_lease (v text)');
      // a worker of another process claimed this one and died: 'running', lease over
      const events: ConsumedEvent[] = [];
      const q = new EventQueue(db);
      q.consume('test.lease', ['test.lease'], async (e) => void events.push(e), { leaseMs: 60_000 });
      await q.register();
      await publish(db, 'test.lease', 'orphan');
      await db.query(
        `UPDATE event_deliveries SET status = 'running', attempts = 1, claim = gen_random_uuid(), next_attempt_at = now() - interval '1 second'
         WHERE consumer = 'test.lease'`,
      );
      expect(await q.drain()).toBe(1);
      expect(events.map((e) => [e.resourceId, e.attempt])).toEqual([['orphan', 2]]);

      // a slow handler whose lease runs out: another worker takes over; the slow one's writes go
      let release!: () => void;
      const slowGate = new Promise<void>((r) => (release = r));
      const slow = new EventQueue(db, { onError: () => {} });
      slow.consume(
        'test.slow',
        ['test.slow'],
        async (e, { done }) => {
          if (e.attempt === 1) await slowGate;
          await done((tx) => tx.query(`INSERT INTO eq_lease VALUES ($1)`, [`attempt ${e.attempt}`]));
        },
        { leaseMs: 100 },
      );
      await slow.register();
      await publish(db, 'test.slow', 's');
      const first = slow.drain();
      await new Promise((r) => setTimeout(r, 300));
      const other = new EventQueue(db);
      other.consume('test.slow', ['test.slow'], async (e, { done }) => {
        await done((tx) => tx.query(`INSERT INTO eq_lease VALUES ($1)`, [`attempt ${e.attempt}`]));
      });
      expect(await other.drain()).toBe(1);
      release();
      await first;
      expect((await db.query<{ v: string }>(`SELECT v FROM eq_lease`)).rows).toEqual([{ v: 'attempt 2' }]);
      expect(await deliveries('test.slow')).toMatchObject([{ status: 'done', attempts: 2 }]);
    });

    it('prunes events an hour after every consumer is done, dead letters after 7 days, and consumers nobody runs', async () => {
      const q = new EventQueue(db);
      q.consume('test.prune', ['test.prune'], async () => {});
      await q.register();
      for (const id of ['old', 'recent', 'pending']) await publish(db, 'test.prune', id);
      await db.query(`UPDATE event_deliveries d SET status = 'done', done_at = now() - interval '2 hours'
        FROM event_queue e WHERE e.id = d.event_id AND e.event_id = 'old' AND d.consumer = 'test.prune'`);
      await db.query(`UPDATE event_deliveries d SET status = 'done', done_at = now() - interval '5 minutes'
        FROM event_queue e WHERE e.id = d.event_id AND e.event_id = 'recent' AND d.consumer = 'test.prune'`);
      // a consumer whose process has not been seen for 8 days, with a backlog
      await db.query(
        `INSERT INTO event_consumers (name, events, seen_at) VALUES ('test.gone', '{test.gone}', now() - interval '8 days')`,
      );
      await publish(db, 'test.gone', 'g');
      await q.prune();
      const left = await db.query<{ event_id: string }>(
        `SELECT event_id FROM event_queue WHERE name IN ('test.prune', 'test.gone') ORDER BY event_id`,
      );
      expect(left.rows.map((r) => r.event_id)).toEqual(['pending', 'recent']);
      expect((await db.query(`SELECT 1 FROM event_consumers WHERE name = 'test.gone'`)).rows).toEqual([]);
    });
  });
}
