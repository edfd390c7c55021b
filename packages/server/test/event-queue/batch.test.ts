import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { EventQueue, publish } from '#server/jobs/event-queue.ts';

/**
 * Batch mode (jobs/README.md "Batch mode"): a consumer whose handler only writes to the database
 * gets up to N deliveries claimed in one statement and handled in one transaction, a savepoint
 * per delivery. Each write below records the transaction it ran in (txid_current() is the
 * top-level transaction's id inside a savepoint), so one transaction per batch is visible.
 */
for (const driver of testDrivers()) {
  describe(`event queue batch mode (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
      await db.exec('CREATE TABLE eqb_writes (consumer text, v text, tx bigint)');
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const writes = async (consumer: string) =>
      (
        await db.query<{ v: string; tx: string }>(`SELECT v, tx::text FROM eqb_writes WHERE consumer = $1 ORDER BY v`, [
          consumer,
        ])
      ).rows;
    const deliveries = async (consumer: string) =>
      (
        await db.query<{ resource: string; status: string; attempts: number; error: string | null; wait_ms: number }>(
          `SELECT e.event_id AS resource, d.status, d.attempts, d.error,
             extract(epoch FROM d.next_attempt_at - d.last_attempt)::float * 1000 AS wait_ms
           FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
           WHERE d.consumer = $1 ORDER BY e.event_id`,
          [consumer],
        )
      ).rows;
    const write = (consumer: string, v: string) =>
      `INSERT INTO eqb_writes VALUES ('${consumer}', '${v}', txid_current())`;

    it('handles a batch in one transaction; a delivery that throws rolls back alone and is retried with backoff, the others are done once', async () => {
      const calls: string[] = [];
      const errors: string[] = [];
      const q = new EventQueue(db, { onError: (err) => errors.push((err as Error).message) });
      q.consume(
        'test.batch',
        ['test.batch'],
        async (e, { done }) => {
          calls.push(`${e.resourceId}#${e.attempt}`);
          await done(async (tx) => {
            await tx.query(write('test.batch', `${e.resourceId}#${e.attempt}`));
            if (e.resourceId === 'c' && e.attempt === 1) throw new Error('c failed');
          });
        },
        {
          batch: { size: 10 },
          backoff: { baseMs: 300 },
          // recorded with the failure, in the batch's transaction
          onFailure: async (e, err, tx, final) => {
            await tx.query(
              write('test.batch', `failure ${e.resourceId}#${e.attempt} ${(err as Error).message} ${final}`),
            );
          },
        },
      );
      await q.register();
      for (const id of ['a', 'b', 'c', 'd', 'e']) await publish(db, 'test.batch', id);

      // one batch: c's retry is not due for 300 ms
      expect(await q.drain()).toBe(5);
      expect(calls).toEqual(['a#1', 'b#1', 'c#1', 'd#1', 'e#1']);
      expect(errors).toEqual(['c failed']);
      const first = await writes('test.batch');
      // c#1's write rolled back with its savepoint; its failure record committed
      expect(first.map((w) => w.v)).toEqual(['a#1', 'b#1', 'd#1', 'e#1', 'failure c#1 c failed false']);
      expect(new Set(first.map((w) => w.tx)).size).toBe(1);
      const after1 = await deliveries('test.batch');
      expect(after1.map((d) => [d.resource, d.status, d.attempts, d.error])).toEqual([
        ['a', 'done', 1, null],
        ['b', 'done', 1, null],
        ['c', 'pending', 1, 'c failed'],
        ['d', 'done', 1, null],
        ['e', 'done', 1, null],
      ]);
      expect(after1[2].wait_ms).toBeGreaterThanOrEqual(300);
      expect(after1[2].wait_ms).toBeLessThan(1000);

      expect(await q.drain()).toBe(0); // not due yet
      await sleep(350);
      expect(await q.drain()).toBe(1);
      expect(calls).toEqual(['a#1', 'b#1', 'c#1', 'd#1', 'e#1', 'c#2']);
      const second = await writes('test.batch');
      expect(second.filter((w) => !w.v.startsWith('failure')).map((w) => w.v)).toEqual([
        'a#1',
        'b#1',
        'c#2',
        'd#1',
        'e#1',
      ]);
      expect(second.find((w) => w.v === 'c#2')!.tx).not.toBe(first[0].tx);
      expect((await deliveries('test.batch')).map((d) => [d.resource, d.status, d.attempts])).toEqual([
        ['a', 'done', 1],
        ['b', 'done', 1],
        ['c', 'done', 2],
        ['d', 'done', 1],
        ['e', 'done', 1],
      ]);
    });

    it('claims at most the batch size; workers share a backlog with a one-at-a-time consumer, each delivery once', async () => {
      const q = new EventQueue(db, { pollMs: 10 });
      q.consume(
        'test.batch-many',
        ['test.many'],
        async (e, { done }) => void (await done((tx) => tx.query(write('test.batch-many', e.resourceId)))),
        { batch: { size: 4 } },
      );
      q.consume(
        'test.single-many',
        ['test.many'],
        async (e, { done }) => void (await done((tx) => tx.query(write('test.single-many', e.resourceId)))),
      );
      await q.register();
      await db.query(`SELECT publish_event('test.many', lpad(g::text, 2, '0'), '{}') FROM generate_series(1, 30) g`);
      await q.start(3);
      await expect
        .poll(async () => (await deliveries('test.batch-many')).filter((d) => d.status === 'done').length, {
          timeout: 10_000,
        })
        .toBe(30);
      await expect
        .poll(async () => (await deliveries('test.single-many')).filter((d) => d.status === 'done').length, {
          timeout: 10_000,
        })
        .toBe(30);
      await q.stop();
      const expected = Array.from({ length: 30 }, (_, i) => String(i + 1).padStart(2, '0'));
      const batched = await writes('test.batch-many');
      expect(batched.map((w) => w.v)).toEqual(expected);
      const perTx = new Map<string, number>();
      for (const w of batched) perTx.set(w.tx, (perTx.get(w.tx) ?? 0) + 1);
      // 30 due at once: batches of 4, the last ones maybe smaller
      expect(Math.max(...perTx.values())).toBe(4);
      expect(perTx.size).toBeGreaterThanOrEqual(8);
      const single = await writes('test.single-many');
      expect(single.map((w) => w.v)).toEqual(expected);
      expect(new Set(single.map((w) => w.tx)).size).toBe(30); // one transaction each, as before
      expect((await deliveries('test.batch-many')).every((d) => d.attempts === 1)).toBe(true);
    });

    it('keeps its deliveries past their lease once its transaction holds them: no other worker takes them over', async () => {
      let entered!: () => void;
      const inHandler = new Promise<void>((r) => (entered = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const q = new EventQueue(db);
      q.consume(
        'test.batch-lease',
        ['test.batch-lease'],
        async (e, { done }) => {
          if (e.resourceId === 'slow') {
            entered();
            await gate;
          }
          await done((tx) => tx.query(write('test.batch-lease', `${e.resourceId}#${e.attempt}`)));
        },
        { batch: { size: 10 }, leaseMs: 100 },
      );
      await q.register();
      await publish(db, 'test.batch-lease', 'slow');
      await publish(db, 'test.batch-lease', 'then');
      const first = q.drain();
      await inHandler;
      await sleep(300); // both leases are over
      // another process's worker looks for due deliveries of the same consumer (on PGlite's one
      // connection it waits for the batch's transaction; on PostgreSQL it skips the locked rows)
      const other = new EventQueue(db);
      other.consume(
        'test.batch-lease',
        ['test.batch-lease'],
        async (e, { done }) =>
          void (await done((tx) => tx.query(write('test.batch-lease', `${e.resourceId}#${e.attempt} other`)))),
      );
      const taken = other.drain();
      await sleep(200);
      release();
      expect(await first).toBe(2);
      expect(await taken).toBe(0);
      expect((await writes('test.batch-lease')).map((w) => w.v)).toEqual(['slow#1', 'then#1']);
      expect((await deliveries('test.batch-lease')).map((d) => [d.resource, d.status, d.attempts])).toEqual([
        ['slow', 'done', 1],
        ['then', 'done', 1],
      ]);
    });

    it('takes over a batch whose worker died when the leases run out, and dead-letters a delivery out of attempts', async () => {
      const calls: string[] = [];
      const q = new EventQueue(db);
      q.consume(
        'test.batch-orphan',
        ['test.batch-orphan'],
        async (e, { done }) => {
          calls.push(`${e.resourceId}#${e.attempt}`);
          await done((tx) => tx.query(write('test.batch-orphan', `${e.resourceId}#${e.attempt}`)));
        },
        { batch: { size: 10 }, maxAttempts: 3 },
      );
      await q.register();
      for (const id of ['x', 'y', 'z']) await publish(db, 'test.batch-orphan', id);
      // a worker of another process claimed them and died: 'running', leases over; z was
      // already on its last attempt
      await db.query(
        `UPDATE event_deliveries d SET status = 'running', claim = gen_random_uuid(), next_attempt_at = now() - interval '1 second',
           attempts = CASE e.event_id WHEN 'z' THEN 3 ELSE 1 END
         FROM event_queue e WHERE e.id = d.event_id AND d.consumer = 'test.batch-orphan'`,
      );
      expect(await q.drain()).toBe(3);
      expect(calls).toEqual(['x#2', 'y#2']);
      const w = await writes('test.batch-orphan');
      expect(w.map((x) => x.v)).toEqual(['x#2', 'y#2']);
      expect(w[0].tx).toBe(w[1].tx);
      expect((await deliveries('test.batch-orphan')).map((d) => [d.resource, d.status, d.attempts, d.error])).toEqual([
        ['x', 'done', 2, null],
        ['y', 'done', 2, null],
        ['z', 'failed', 4, 'the last 3 attempts did not finish'],
      ]);
    });

    it('fails a delivery whose handler caught a failed statement, and goes on with the next', async () => {
      const q = new EventQueue(db, { onError: () => {} });
      q.consume(
        'test.batch-caught',
        ['test.batch-caught'],
        async (e, { done }) => {
          await done(async (tx) => {
            await tx.query(write('test.batch-caught', e.resourceId));
            if (e.resourceId === 'caught') await tx.query('SELECT 1 / 0').catch(() => {});
          });
        },
        { batch: { size: 5 }, maxAttempts: 1 },
      );
      await q.register();
      for (const id of ['caught', 'next']) await publish(db, 'test.batch-caught', id);
      expect(await q.drain()).toBe(2);
      expect((await writes('test.batch-caught')).map((w) => w.v)).toEqual(['next']);
      const d = await deliveries('test.batch-caught');
      expect(d.map((x) => [x.resource, x.status])).toEqual([
        ['caught', 'failed'],
        ['next', 'done'],
      ]);
      expect(d[0].error).toMatch(/current transaction is aborted/);
    });

    it('gives a batch handler no database outside its transaction, and refuses a batch size out of range', async () => {
      const q = new EventQueue(db);
      q.consume(
        'test.batch-db',
        ['test.batch-db'],
        async (_e, { db: outside }) => {
          await outside.query('SELECT 1');
        },
        { batch: { size: 5 }, maxAttempts: 1 },
      );
      await q.register();
      await publish(db, 'test.batch-db', 'r');
      expect(await q.drain()).toBe(1);
      expect((await deliveries('test.batch-db')).map((d) => [d.status, d.error])).toEqual([
        ['failed', 'the event consumer "test.batch-db" runs in batches: its handler reads and writes through done(tx)'],
      ]);
      for (const size of [0, 65, 1.5])
        expect(() => q.consume(`test.batch-${size}`, ['x'], async () => {}, { batch: { size } })).toThrow(
          'a batch holds 1 to 64 deliveries',
        );
    });
  });
}
