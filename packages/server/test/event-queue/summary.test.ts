/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { Browser, startLoggedApp, type TestApp } from '../auth/support.ts';
import { EventQueue, publish } from '#server/jobs/event-queue.ts';

// The Event Queue page's data (seed 002 section 3 "Event queue summary", seed 000: GET
// event_queue_summary?order=last_failure.desc): per event name and consumer, the backlog (pending
// and dead-lettered deliveries), average attempts, first and last failure and the most common
// error, from the real queue.

for (const driver of testDrivers()) {
  describe(`event queue summary (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let api: Browser;

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authMode: 'none', logLevel: 'silent' });
      api = new Browser(t.url);
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
    });

    it('summarises the backlog per event name and consumer, most recent failure first', async () => {
      // Three consumers, as areas register them: one whose sends fail for good (one attempt each),
      // one that fails and retries later, and one that handles everything.
      const queue = new EventQueue(db);
      queue.consume(
        'test.notifications',
        ['notification.send'],
        async (e) => {
          throw new Error(e.resourceId === 'n2' ? 'SMTP 421 try later' : 'SMTP 550 mailbox unavailable');
        },
        { maxAttempts: 1 },
      );
      queue.consume(
        'test.rules',
        ['check.failed'],
        async () => {
          throw new Error('incident rules unavailable');
        },
        { backoff: { baseMs: 60_000 } },
      );
      queue.consume('test.audit', ['check.failed', 'config.updated'], async () => {});
      await queue.register();
      for (let i = 0; i < 3; i++) await publish(db, 'notification.send', `n${i}`);
      for (let i = 0; i < 2; i++) await publish(db, 'check.failed', `c${i}`);
      await publish(db, 'config.updated', 'u1');
      await publish(db, 'config.deleted', 'nobody consumes this');
      // every delivery once: 3 notifications, 2 x 2 check.failed, 1 config.updated
      expect(await queue.drain()).toBe(8);
      await publish(db, 'config.updated', 'u2'); // not handled yet: pending, no attempt

      const r = await api.get('/api/db/event_queue_summary?order=last_failure.desc.nullslast');
      expect(r.status).toBe(200);
      const rows = r.body as any[];
      // what is done is not backlog: test.audit's check.failed are gone
      const byKey = Object.fromEntries(rows.map((row) => [`${row.name} ${row.consumer}`, row]));
      expect(Object.keys(byKey).sort()).toEqual([
        'check.failed test.rules',
        'config.updated test.audit',
        'notification.send test.notifications',
      ]);
      expect(Object.keys(rows[0]).sort()).toEqual(
        [
          'average_attempts',
          'consumer',
          'failed',
          'first_failure',
          'last_failure',
          'most_common_error',
          'name',
          'pending',
        ].sort(),
      );
      expect(byKey['notification.send test.notifications']).toMatchObject({
        pending: 0,
        failed: 3,
        average_attempts: 1,
        most_common_error: 'SMTP 550 mailbox unavailable',
      });
      expect(byKey['check.failed test.rules']).toMatchObject({
        pending: 2,
        failed: 0,
        average_attempts: 1,
        most_common_error: 'incident rules unavailable',
      });
      expect(byKey['config.updated test.audit']).toMatchObject({
        pending: 1,
        failed: 0,
        average_attempts: 0,
        first_failure: null,
        last_failure: null,
        most_common_error: null,
      });
      const n = byKey['notification.send test.notifications'];
      expect(new Date(n.first_failure).getTime()).toBeLessThanOrEqual(new Date(n.last_failure).getTime());
      // order=last_failure.desc: names that failed come before those that never did
      expect(rows.at(-1).name).toBe('config.updated');
    });

    it('is read-only', async () => {
      expect((await api.post('/api/db/event_queue_summary', { name: 'x' })).status).toBe(405);
    });
  });
}
