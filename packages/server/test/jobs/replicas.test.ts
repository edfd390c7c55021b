/**
 * Job history with several replicas (issue 12 point 14): two engine instances on one database.
 * A starting replica leaves the RUNNING rows of a live one alone and closes those of a gone one;
 * when a replica dies mid-run (here: its database connection goes dead, so it stops beating),
 * the survivor marks its runs STOPPED within the liveness window plus one beat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { createEngines } from '#server/jobs/index.ts';
import { runJob } from '#server/jobs/job-history.ts';
import type { Db } from '#server/db/index.ts';

const HEARTBEAT_MS = 200;
const STALE_AFTER_MS = 1000;
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/** The same database, as a replica whose connection can be cut (every later query fails). */
function killable(db: Db): Db & { kill(): void } {
  let dead = false;
  const guard = <T>(fn: () => Promise<T>): Promise<T> =>
    dead ? Promise.reject(new Error('connection terminated')) : fn();
  return Object.assign(Object.create(db) as Db, {
    query: (sql: string, params?: unknown[]) => guard(() => db.query(sql, params)),
    exec: (sql: string) => guard(() => db.exec(sql)),
    transaction: <T>(fn: Parameters<Db['transaction']>[0]) => guard(() => db.transaction(fn)) as Promise<T>,
    readRow: <T>(sql: string, params: unknown[]) => guard(() => db.readRow<T>(sql, params)),
    kill: () => void (dead = true),
  });
}

for (const driver of testDrivers()) {
  describe(`job history with two replicas (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open();
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const statusOf = async (id: string) =>
      (await db.query<{ status: string }>(`SELECT status FROM job_history WHERE id = $1`, [id])).rows[0]?.status;

    it('a starting replica stops only the runs of gone replicas; a dead one is closed by the survivor', async () => {
      // A process that died an hour ago, with a run it never finished.
      const gone = '11111111-2222-3333-4444-555555555555';
      await db.query(`INSERT INTO engine_processes (id, last_seen) VALUES ($1, now() - interval '1 hour')`, [gone]);
      const orphan = (
        await db.query<{ id: string }>(
          `INSERT INTO job_history (name, status, process_id) VALUES ('Orphan', 'RUNNING', $1) RETURNING id`,
          [gone],
        )
      ).rows[0].id;

      // Replica A runs a long job.
      const dbA = killable(db);
      const a = createEngines(dbA, log, {
        workers: 1,
        jobHistoryRetentionDays: 30,
        heartbeatMs: HEARTBEAT_MS,
        staleAfterMs: STALE_AFTER_MS,
      });
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      a.scheduler.addSource({
        name: 'test',
        list: async () => [
          {
            key: 'test:long',
            schedule: '@every 1s',
            run: async () => void (await runJob(dbA, { name: 'LongRun' }, () => gate)),
          },
        ],
      });
      const b = createEngines(db, log, {
        workers: 1,
        jobHistoryRetentionDays: 30,
        heartbeatMs: HEARTBEAT_MS,
        staleAfterMs: STALE_AFTER_MS,
      });
      try {
        await a.start();
        const longRuns = async () =>
          (
            await db.query<{ id: string; process_id: string }>(
              `SELECT id, process_id FROM job_history WHERE name = 'LongRun'`,
            )
          ).rows;
        await expect.poll(longRuns, { timeout: 5000 }).toHaveLength(1);
        const [long] = await longRuns();
        expect(long.process_id).toBe(a.process.id);

        // Replica B starts: A's run goes on, the gone process's run is closed.
        await b.start();
        expect(await statusOf(long.id)).toBe('RUNNING');
        expect(await statusOf(orphan)).toBe('STOPPED');

        // Both beat for a while: still RUNNING.
        await new Promise((r) => setTimeout(r, 2 * STALE_AFTER_MS));
        expect(await statusOf(long.id)).toBe('RUNNING');
        const alive = (await db.query<{ id: string }>(`SELECT id FROM engine_processes ORDER BY id`)).rows.map(
          (r) => r.id,
        );
        expect(alive.sort()).toEqual([a.process.id, b.process.id].sort());

        // A dies mid-run: B closes its run within the window and one beat.
        dbA.kill();
        const diedAt = Date.now();
        await expect.poll(() => statusOf(long.id), { timeout: 10_000, interval: 50 }).toBe('STOPPED');
        expect(Date.now() - diedAt).toBeLessThan(STALE_AFTER_MS + 3 * HEARTBEAT_MS + 500);
        expect((await db.query(`SELECT id FROM engine_processes WHERE id = $1`, [a.process.id])).rows).toEqual([]);
      } finally {
        release();
        await a.stop();
        await b.stop();
      }
      // B stopped cleanly: it no longer counts as a live process.
      expect((await db.query(`SELECT id FROM engine_processes`)).rows).toEqual([]);
    }, 30_000);
  });
}
