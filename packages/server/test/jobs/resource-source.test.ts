import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '#server/db/index.ts';
import { resourceJobSource, type ScheduledResource } from '#server/jobs/index.ts';
import { HealthEngine, healthJobSources } from '#server/health/index.ts';
import { connectionResolver } from '#server/health/connections.ts';
import { testDrivers } from '../support/db.ts';

/**
 * The scheduled-resource source (jobs/resource-source.ts) reads a resource's row once per run and
 * hands it to the runner: a canary run reads `canaries` once, the extra columns it needs (labels,
 * icon, its checks) included. Statements are counted through a Db that notes every statement
 * naming the table, inside transactions too.
 */
function counting(db: Db, table: string): { db: Db; reads: string[] } {
  const reads: string[] = [];
  const pattern = new RegExp(`\\b${table}\\b`);
  const wrap = <Q extends Queryable>(q: Q): Q =>
    new Proxy(q, {
      get(target, prop) {
        if (prop === 'query' || prop === 'readRow' || prop === 'each') {
          return (sql: string, ...rest: unknown[]) => {
            if (pattern.test(sql)) reads.push(sql);
            return (target[prop as keyof Q] as (...a: unknown[]) => unknown).call(target, sql, ...rest);
          };
        }
        if (prop === 'transaction') {
          return <T>(fn: (tx: Queryable) => Promise<T>) => (target as unknown as Db).transaction((tx) => fn(wrap(tx)));
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { db: wrap(db), reads };
}

for (const driver of testDrivers()) {
  describe(`scheduled-resource source (${driver.name})`, () => {
    let raw: Db & { dispose(): Promise<void> };
    beforeAll(async () => {
      raw = await driver.open();
    });
    afterAll(async () => {
      await raw?.dispose();
    });

    const insertCanary = async (name: string, extra = '') =>
      (
        await raw.query<{ id: string }>(
          `INSERT INTO canaries (name, namespace, schedule, labels, icon, spec${extra ? ', agent_id' : ''})
           VALUES ($1, 'default', '@every 1m', '{"team":"a"}', 'tcp',
                   '{"tcp": [{"name": "closed", "endpoint": "127.0.0.1:1"}]}'${extra ? `, ${extra}` : ''})
           RETURNING id`,
          [name],
        )
      ).rows[0].id;

    it('a canary run reads the canary row once and runs its checks', async () => {
      const id = await insertCanary('read-once');
      const { db, reads } = counting(raw, 'canaries');
      const engine = new HealthEngine(db, connectionResolver(db, undefined), { defaultTimeoutMs: 5000 });
      const errors: unknown[] = [];
      const [source] = healthJobSources(db, engine, { db, retentionDays: 30 }, (err) => errors.push(err));
      // listing syncs the new canary's checks, as the scheduler's reload does
      const job = (await source.list()).find((j) => j.key === `canary:${id}`);
      expect(job).toBeDefined();
      expect(errors).toEqual([]);

      reads.length = 0;
      await job!.run();
      expect(reads).toHaveLength(1);

      const history = await raw.query<{ name: string; status: string; error_count: number }>(
        `SELECT name, status, error_count FROM job_history WHERE resource_id = $1`,
        [id],
      );
      expect(history.rows).toEqual([{ name: 'CanaryRun', status: 'FAILED', error_count: 1 }]);
      const statuses = await raw.query<{ status: boolean }>(
        `SELECT s.status FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1`,
        [id],
      );
      expect(statuses.rows).toEqual([{ status: false }]);
    });

    it('hands the runner the row it read, extra columns included; deleted and remote resources do not run', async () => {
      const id = await insertCanary('handed');
      const agent = (await raw.query<{ id: string }>(`INSERT INTO agents (name) VALUES ('elsewhere') RETURNING id`))
        .rows[0].id;
      const remote = await insertCanary('remote', `'${agent}'`);
      const { db, reads } = counting(raw, 'canaries');
      const handed: (ScheduledResource & { labels: Record<string, string> })[] = [];
      const source = resourceJobSource<ScheduledResource & { labels: Record<string, string> }>(
        db,
        { table: 'canaries', jobName: 'CanaryRun', resourceType: 'canary', columns: 'r.labels' },
        async (row, ctx) => {
          handed.push(row);
          ctx.success();
        },
      );
      const jobs = await source.list();
      const keys = jobs.map((j) => j.key);
      expect(keys).toContain(`canary:${id}`);
      expect(keys).not.toContain(`canary:${remote}`);
      const job = jobs.find((j) => j.key === `canary:${id}`)!;

      reads.length = 0;
      await job.run();
      expect(reads).toHaveLength(1);
      expect(handed).toEqual([
        {
          id,
          name: 'handed',
          namespace: 'default',
          agent_id: '00000000-0000-0000-0000-000000000000',
          spec: { tcp: [{ name: 'closed', endpoint: '127.0.0.1:1' }] },
          schedule: '@every 1m',
          labels: { team: 'a' },
        },
      ]);

      // soft-deleted after it was listed: the run reads it, finds it gone and does nothing
      await raw.query(`UPDATE canaries SET deleted_at = now() WHERE id = $1`, [id]);
      await job.run();
      expect(handed).toHaveLength(1);
    });
  });
}
