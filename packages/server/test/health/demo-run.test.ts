/* eslint-disable @typescript-eslint/no-explicit-any -- rows are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { demoTargets, seedDemo } from '#server/demo/seed.ts';
import { DELIBERATE, demoCheckRoots } from '#server/demo/health.ts';
import { setCheckRoots } from '#server/git/index.ts';
import { HealthEngine } from '#server/health/index.ts';
import { connectionResolver } from '#server/health/connections.ts';
import { runJob } from '#server/jobs/index.ts';
import type { CanaryRow } from '#server/health/sync.ts';

/**
 * The demo stays as designed wherever it runs: a server with demo data, every demo canary run by
 * the real engine against what the demo points at (this console's port, its database, its files,
 * a closed port). The checks named "deliberately failing: ..." fail with a message saying why;
 * every other check passes; each run is recorded in job history as SUCCESS, WARNING or FAILED.
 * Run twice, as time passes: nothing drifts.
 */
for (const driver of testDrivers()) {
  describe(`demo canaries run as designed (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db));
      // as a server with demo data sets them (app.ts): the demo's folder check reads the migrations
      setCheckRoots(demoCheckRoots());
      const databaseUrl = driver.name === 'pg' ? process.env.TEST_DATABASE_URL : undefined;
      const targets = demoTargets({ port: Number(new URL(url).port), host: '127.0.0.1', databaseUrl });
      expect(await seedDemo(db, { force: false, targets })).toEqual({ seeded: true });
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    const runAll = async () => {
      const engine = new HealthEngine(db, connectionResolver(db, undefined), { defaultTimeoutMs: 10_000 });
      const { rows: canaries } = await db.query<CanaryRow>(
        `SELECT id, name, namespace, agent_id, icon, labels, spec, schedule FROM canaries WHERE deleted_at IS NULL ORDER BY name`,
      );
      const jobs: Record<string, any> = {};
      for (const c of canaries) {
        const { id } = await runJob(
          db,
          { name: 'CanaryRun', resourceType: 'canary', resourceId: c.id, agentId: c.agent_id },
          (ctx) => engine.runCanary(c, ctx),
        );
        jobs[c.name] = (
          await db.query(`SELECT status, success_count, error_count, details FROM job_history WHERE id = $1`, [id])
        ).rows[0];
      }
      const { rows: checks } = await db.query<{ canary: string; name: string; status: string; error: string | null }>(
        `SELECT ca.name AS canary, c.name, c.status, s.error
         FROM checks c JOIN canaries ca ON ca.id = c.canary_id
         JOIN LATERAL (SELECT error FROM check_statuses s WHERE s.check_id = c.id ORDER BY time DESC LIMIT 1) s ON true
         WHERE c.deleted_at IS NULL ORDER BY ca.name, c.name`,
      );
      return { jobs, checks };
    };

    for (const round of [1, 2]) {
      it(`round ${round}: the deliberate failures fail with a clear message, every other check passes`, async () => {
        const { jobs, checks } = await runAll();
        const failing = checks.filter((c) => c.status !== 'healthy');
        const passing = checks.filter((c) => c.status === 'healthy');
        expect(failing.map((c) => c.name)).toEqual(
          checks.filter((c) => c.name.startsWith(DELIBERATE)).map((c) => c.name),
        );
        expect(failing).toHaveLength(4);
        expect(passing.map((c) => `${c.canary}/${c.name}`)).toEqual([
          'console/console api health',
          'console/console api latency',
          'console/console migrations',
          'console/console port',
          'console/console version',
          ...(driver.name === 'pg' ? ['database/database port'] : []),
          'database/database reachable from the console',
        ]);
        for (const c of failing)
          expect(c.error, c.name).toMatch(/refused|no answer|nothing is listening|cannot connect/);

        expect(jobs.console).toMatchObject({ status: 'SUCCESS', success_count: 5, error_count: 0 });
        expect(jobs.database).toMatchObject({
          status: 'WARNING',
          success_count: driver.name === 'pg' ? 2 : 1,
          error_count: 1,
        });
        expect(Object.keys(jobs.database.details.errors)).toEqual([`${DELIBERATE}PostgreSQL on a closed port`]);
        expect(jobs['deliberate-failures']).toMatchObject({ status: 'FAILED', success_count: 0, error_count: 3 });
        expect(Object.keys(jobs['deliberate-failures'].details.errors).sort()).toEqual(
          failing.filter((c) => c.canary === 'deliberate-failures').map((c) => c.name),
        );
      }, 60_000);
    }
  });
}
