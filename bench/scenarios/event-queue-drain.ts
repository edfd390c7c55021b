import { freshDb } from '../support.ts';
import { EventQueue } from '#server/jobs/event-queue.ts';
import type { Scenario } from './index.ts';

const EVENTS = 10_000;
const WORKERS = 4;
const BATCH = 50;

/**
 * Issue 4's target: the event queue drains 10,000 events in under 5 s on PostgreSQL with 4
 * workers, and no event is handled twice. The consumer is shaped like the real database-only
 * ones (the incidents consumers): its handler writes through done(), so each delivery's write
 * commits with it, and it runs in batch mode as they do (jobs/README.md). A handler that wrote
 * nothing would measure a path no real consumer takes. Runs on a fresh database of its own; the
 * time includes the last batch's commit (stop() waits for it), and the count of writes is read
 * back from the database.
 */
export const eventQueueDrain: Scenario = {
  name: `event queue: drain ${EVENTS} events of a database-only consumer, batches of ${BATCH}, ${WORKERS} workers`,
  async run() {
    const bench = await freshDb();
    const { db } = bench;
    await db.exec('CREATE TABLE bench_effects (resource_id text NOT NULL, attempt int NOT NULL)');
    let handled = 0;
    const queue = new EventQueue(db, { pollMs: 5 });
    queue.consume(
      'bench',
      ['bench.write'],
      async (e, { done }) => {
        await done((tx) =>
          tx.query(`INSERT INTO bench_effects (resource_id, attempt) VALUES ($1, $2)`, [e.resourceId, e.attempt]),
        );
        handled++;
      },
      { batch: { size: BATCH } },
    );
    await queue.register(); // before publishing: an event nobody consumes is not stored
    await db.query(`SELECT publish_event('bench.write', g::text, '{}'::jsonb) FROM generate_series(1, $1::int) g`, [
      EVENTS,
    ]);
    const started = performance.now();
    await queue.start(WORKERS);
    while (handled < EVENTS && performance.now() - started < 60_000) await new Promise((r) => setTimeout(r, 10));
    await queue.stop();
    const elapsed = performance.now() - started;
    const { rows } = await db.query<{ writes: number; distinct: number; done: number }>(
      `SELECT (SELECT count(*) FROM bench_effects)::int AS writes,
         (SELECT count(DISTINCT resource_id) FROM bench_effects)::int AS distinct,
         (SELECT count(*) FROM event_deliveries WHERE status = 'done')::int AS done`,
    );
    const { writes, distinct, done } = rows[0];
    await bench.dispose();
    const twice = writes - distinct;
    const ok = elapsed < 5000 && twice === 0 && distinct === EVENTS && done === EVENTS;
    return {
      driver: db.driver,
      result: `${done} events in ${(elapsed / 1000).toFixed(2)} s (${Math.round(done / (elapsed / 1000))}/s), ${distinct} written, ${twice} written twice`,
      target: 'under 5 s on pg, none twice',
      met: db.driver === 'pg' ? (ok ? 'yes' : 'no') : 'n/a (PGlite)',
    };
  },
};
