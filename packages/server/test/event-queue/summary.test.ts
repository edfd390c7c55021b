/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { Browser, startLoggedApp, type TestApp } from '../auth/support.ts';
import { EventQueue, publishEvent } from '../../src/jobs/event-queue.ts';

// The Event Queue page's data (seed 002 section 3 "Event queue summary", seed 000: GET
// event_queue_summary?order=last_failure.desc): per event name, pending and dead-lettered counts,
// average attempts, first and last failure and the most common error, from the real queue.

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

    it('summarises pending and failed events per name, most recent failure first', async () => {
      for (let i = 0; i < 3; i++) await publishEvent(db, 'notification.send', `n${i}`);
      for (let i = 0; i < 2; i++) await publishEvent(db, 'check.failed', `c${i}`);
      await publishEvent(db, 'config.updated', 'u1');

      // A consumer whose notification handler fails: one attempt each, so they are dead letters.
      const queue = new EventQueue(db, { maxAttempts: 1 });
      let calls = 0;
      queue.on('notification.send', async (e) => {
        calls++;
        throw new Error(e.event_id === 'n2' ? 'SMTP 421 try later' : 'SMTP 550 mailbox unavailable');
      });
      expect(await queue.drainOnce()).toBe(3);
      expect(calls).toBe(3);
      // check.failed fails once and is retried later (still pending)
      const retrying = new EventQueue(db, { maxAttempts: 5, baseBackoffMs: 60_000 });
      retrying.on('check.failed', async () => {
        throw new Error('incident rules unavailable');
      });
      expect(await retrying.drainOnce()).toBe(2);

      const r = await api.get('/api/db/event_queue_summary?order=last_failure.desc.nullslast');
      expect(r.status).toBe(200);
      const byName = Object.fromEntries((r.body as any[]).map((row) => [row.name, row]));
      expect(Object.keys(byName).sort()).toEqual(['check.failed', 'config.updated', 'notification.send']);
      expect(Object.keys(byName['notification.send']).sort()).toEqual(
        ['average_attempts', 'failed', 'first_failure', 'last_failure', 'most_common_error', 'name', 'pending'].sort(),
      );
      expect(byName['notification.send']).toMatchObject({
        pending: 0,
        failed: 3,
        average_attempts: 1,
        most_common_error: 'SMTP 550 mailbox unavailable',
      });
      expect(byName['check.failed']).toMatchObject({ pending: 2, failed: 0, average_attempts: 1, most_common_error: 'incident rules unavailable' });
      expect(byName['config.updated']).toMatchObject({ pending: 1, failed: 0, average_attempts: 0, first_failure: null, last_failure: null, most_common_error: null });
      const n = byName['notification.send'];
      expect(new Date(n.first_failure).getTime()).toBeLessThanOrEqual(new Date(n.last_failure).getTime());
      // order=last_failure.desc: names that failed come before those that never did
      expect((r.body as any[]).at(-1).name).toBe('config.updated');
    });

    it('is read-only', async () => {
      expect((await api.post('/api/db/event_queue_summary', { name: 'x' })).status).toBe(405);
    });
  });
}
