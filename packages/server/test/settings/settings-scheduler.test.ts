/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { resourceJobSource, type ScheduledResource } from '#server/jobs/index.ts';
import { scheduledKind } from '#server/settings/index.ts';

/**
 * Writes through /api/db reach the scheduler at once: a created canary is scheduled and runs (its
 * run recorded in job history), an edit applies to the next run, a soft delete unschedules it.
 * The periodic resync is left at its default (60 s), so only the write-triggered reload can make
 * these pass within their few-second polls.
 */
for (const driver of testDrivers()) {
  describe(`settings writes reload the scheduler (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    const runs: ScheduledResource[] = [];
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'none' }));
      app.engines.scheduler.addSource(
        resourceJobSource(db, scheduledKind('canaries'), async (canary, ctx) => {
          runs.push(canary);
          const checks = Object.values(canary.spec).filter(Array.isArray).flat();
          if (canary.spec.fail) ctx.error(new Error(`canary ${canary.name} told to fail`));
          else ctx.success(checks.length);
        }),
      );
      // the other scheduled kinds, with runners that do nothing: their scheduling is what counts
      for (const table of ['config_scrapers', 'topologies'] as const) {
        app.engines.scheduler.addSource(
          resourceJobSource(db, scheduledKind(table), async (_row, ctx) => ctx.success(0)),
        );
      }
      await app.engines.start();
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    const write = async (method: string, path: string, body: unknown) => {
      const res = await fetch(url + path, {
        method,
        headers: { 'content-type': 'application/json', prefer: 'return=representation' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      return (await res.json()) as any[];
    };
    const history = async (id: string) =>
      (
        await db.query<{ name: string; status: string; success_count: number; details: any }>(
          `SELECT name, status, success_count, details FROM job_history WHERE resource_id = $1 AND status <> 'RUNNING' ORDER BY created_at`,
          [id],
        )
      ).rows;

    it('schedules a created canary, applies an edit to the next run and drops it when soft-deleted', async () => {
      const [created] = await write('POST', '/api/db/canaries', {
        name: 'sched-me',
        schedule: '@every 1s',
        spec: { tcp: [{ name: 'a', endpoint: '127.0.0.1:1' }] },
      });
      const key = `canary:${created.id}`;
      // scheduled before the write is answered: the caller's next read sees it
      expect(app.engines.scheduler.jobKeys()).toContain(key);
      await expect.poll(async () => (await history(created.id)).length, { timeout: 5000 }).toBeGreaterThan(0);
      expect((await history(created.id))[0]).toMatchObject({ name: 'CanaryRun', status: 'SUCCESS', success_count: 1 });

      // an edit: the next run sees the new spec (two checks, then a failure)
      await write('PATCH', `/api/db/canaries?id=eq.${created.id}`, {
        spec: {
          tcp: [
            { name: 'a', endpoint: '127.0.0.1:1' },
            { name: 'b', endpoint: '127.0.0.1:2' },
          ],
          fail: true,
        },
      });
      await expect
        .poll(async () => (await history(created.id)).some((h) => h.status === 'FAILED'), { timeout: 5000 })
        .toBe(true);
      const failed = (await history(created.id)).find((h) => h.status === 'FAILED')!;
      expect(failed.details.errors).toBe('canary sched-me told to fail');

      // soft delete: unscheduled, no further runs
      await write('PATCH', `/api/db/canaries?id=eq.${created.id}`, { deleted_at: new Date().toISOString() });
      await expect.poll(() => app.engines.scheduler.jobKeys(), { timeout: 3000 }).not.toContain(key);
      const count = (await history(created.id)).length;
      await new Promise((r) => setTimeout(r, 1600));
      expect((await history(created.id)).length).toBe(count);
    });

    it('leaves resources of remote agents and unscheduled ones to others', async () => {
      await db.query(
        `INSERT INTO agents (id, name) VALUES ('11111111-1111-1111-1111-111111111111', 'remote') ON CONFLICT DO NOTHING`,
      );
      const [remote] = await write('POST', '/api/db/canaries', {
        name: 'remote-one',
        agent_id: '11111111-1111-1111-1111-111111111111',
        schedule: '@every 1s',
        spec: {},
      });
      const [manual] = await write('POST', '/api/db/canaries', { name: 'manual', spec: {} });
      // spec.schedule counts when the column is empty
      const [fromSpec] = await write('POST', '/api/db/canaries', {
        name: 'spec-scheduled',
        spec: { schedule: '@every 1h' },
      });
      await expect.poll(() => app.engines.scheduler.jobKeys(), { timeout: 3000 }).toContain(`canary:${fromSpec.id}`);
      expect(app.engines.scheduler.jobKeys()).not.toContain(`canary:${remote.id}`);
      expect(app.engines.scheduler.jobKeys()).not.toContain(`canary:${manual.id}`);
    });

    it('schedules scrapers and topologies before the write is answered, and unschedules them', async () => {
      for (const [table, type] of [
        ['config_scrapers', 'config_scraper'],
        ['topologies', 'topology'],
      ]) {
        const [created] = await write('POST', `/api/db/${table}`, {
          name: `sched-${type}`,
          spec: { schedule: '@every 1h' },
        });
        expect(app.engines.scheduler.jobKeys(), table).toContain(`${type}:${created.id}`);
        await write('PATCH', `/api/db/${table}?id=eq.${created.id}`, { deleted_at: new Date().toISOString() });
        expect(app.engines.scheduler.jobKeys(), table).not.toContain(`${type}:${created.id}`);
      }
    });
  });
}
