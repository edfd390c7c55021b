import { freshDb } from '../support.ts';
import { EventQueue } from '../../packages/server/src/jobs/event-queue.ts';
import type { Scenario } from './index.ts';

const EVENTS = 10_000;
const WORKERS = 4;

/**
 * Issue 4's target: the event queue drains 10,000 no-op events in under 5 s on PostgreSQL with
 * 4 workers, and no event is handled twice. Runs on a fresh database of its own.
 */
export const eventQueueDrain: Scenario = {
  name: `event queue: drain ${EVENTS} no-op events, ${WORKERS} workers`,
  async run() {
    const bench = await freshDb();
    const { db } = bench;
    await db.query(
      `INSERT INTO event_queue (name, event_id, properties)
       SELECT 'bench.noop', g::text, '{}'::jsonb FROM generate_series(1, $1::int) g`,
      [EVENTS],
    );
    const seen = new Map<string, number>();
    const queue = new EventQueue(db, { pollMs: 5, batchSize: 50 });
    queue.on('bench.noop', async (e) => void seen.set(e.event_id, (seen.get(e.event_id) ?? 0) + 1));
    const started = performance.now();
    queue.start(WORKERS);
    while (seen.size < EVENTS && performance.now() - started < 60_000) await new Promise((r) => setTimeout(r, 10));
    const elapsed = performance.now() - started;
    await queue.stop();
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    await bench.dispose();
    const ok = elapsed < 5000 && duplicates === 0 && seen.size === EVENTS;
    return {
      driver: db.driver,
      result: `${seen.size} events in ${(elapsed / 1000).toFixed(2)} s (${Math.round(seen.size / (elapsed / 1000))}/s), ${duplicates} handled twice`,
      target: 'under 5 s on pg, none twice',
      met: db.driver === 'pg' ? (ok ? 'yes' : 'no') : 'n/a (PGlite)',
    };
  },
};
