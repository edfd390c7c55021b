import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { testDrivers } from '../support/db.ts';
import { Scheduler } from '#server/jobs/scheduler.ts';

describe('scheduler', () => {
  for (const driver of testDrivers()) {
    it(`fires @every jobs on time, re-arms on reload and drops deleted jobs (${driver.name})`, async () => {
      const db = await driver.open();
      const runs: number[] = [];
      let jobs = [{ key: 'a', schedule: '@every 1s', run: async () => void runs.push(Date.now()) }];
      const s = new Scheduler(db, { resyncMs: 60_000 });
      s.addSource({ name: 't', list: async () => jobs });
      await s.start();
      await expect.poll(() => runs.length, { timeout: 4000 }).toBeGreaterThanOrEqual(2);
      // Slots are aligned to whole seconds: consecutive runs are ~1 s apart.
      expect(runs[1] - runs[0]).toBeGreaterThan(800);
      jobs = [];
      await s.reload();
      expect(s.jobKeys()).toEqual([]);
      const count = runs.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(runs.length).toBe(count);
      await s.stop();
      await db.dispose();
    });
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  it.runIf(!!adminUrl)(
    'two server processes on one PostgreSQL run each slot once',
    async () => {
      const driver = testDrivers().find((d) => d.name === 'pg')!;
      const db = await driver.open();
      await db.exec('CREATE TABLE sched_runs (replica text, at timestamptz DEFAULT now())');
      const { rows } = await db.query<{ db: string }>('SELECT current_database() AS db');
      const url = new URL(adminUrl!);
      url.pathname = `/${rows[0].db}`;
      const replicas = ['r1', 'r2'].map(
        (replica) =>
          new Promise<number>((resolve) => {
            const child = spawn(
              process.execPath,
              ['--import', 'tsx', 'packages/server/test/jobs/fixtures/scheduler-replica.ts'],
              {
                env: { ...process.env, DATABASE_URL: url.toString(), REPLICA: replica, DURATION_MS: '5000' },
                stdio: 'inherit',
              },
            );
            child.on('exit', (code) => resolve(code ?? 1));
          }),
      );
      expect(await Promise.all(replicas)).toEqual([0, 0]);
      const runs = await db.query<{ n: number; slots: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT date_trunc('second', at))::int AS slots FROM sched_runs`,
      );
      const claims = await db.query<{ n: number; distinct_slots: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT slot)::int AS distinct_slots FROM scheduler_claims WHERE job_key = 'test:every-1s'`,
      );
      // Both replicas were up for ~5 slots; each slot was claimed and run exactly once.
      expect(runs.rows[0].n).toBeGreaterThanOrEqual(3);
      expect(runs.rows[0].n).toBe(claims.rows[0].n);
      expect(claims.rows[0].n).toBe(claims.rows[0].distinct_slots);
      await db.dispose();
    },
    30_000,
  );
});
