import { freshDb } from '../support.ts';
import { EventQueue } from '../../packages/server/src/jobs/event-queue.ts';
import type { Scenario } from './index.ts';

const EVENTS = 10_000;
const WORKERS = 4;

/**
 * Issue 4's target: the event queue drains 10,000 no-op events in under 5 s on PostgreSQL with
 * 4 workers, and no event is handled twice. Each worker claims, handles and records one delivery
 * at a time (issue 14: a crash repeats at most one effect per worker). Runs on a fresh database
 * of its own.
 */
export const eventQueueDrain: Scenario = {
  name: `event queue: drain ${EVENTS} no-op events, ${WORKERS} workers`,
  async run() {
    const bench = await freshDb();
    const { db } = bench;
    const seen = new Map<string, number>();
    const queue = new EventQueue(db, { pollMs: 5 });
    queue.consume('bench', ['bench.noop'], async (e) => void seen.set(e.resourceId, (seen.get(e.resourceId) ?? 0) + 1));
    await queue.register(); // before publishing: an event nobody consumes is not stored
    await db.query(`SELECT publish_event('bench.noop', g::text, '{}'::jsonb) FROM generate_series(1, $1::int) g`, [
      EVENTS,
    ]);
    const started = performance.now();
    await queue.start(WORKERS);
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
