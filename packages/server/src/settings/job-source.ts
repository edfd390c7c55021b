import { LOCAL_AGENT_ID } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { runJob, type JobSource } from '../jobs/index.ts';
import type { JobContext } from '../jobs/job-history.ts';
import { kindByTable } from './kinds.ts';

export interface ScheduledResource {
  id: string;
  name: string;
  namespace: string;
  agent_id: string;
  spec: Record<string, unknown>;
  schedule: string;
}

/** What an engine does for one run of one resource; counts and errors go through ctx. */
export type ResourceRunner = (resource: ScheduledResource, ctx: JobContext) => Promise<void>;

/**
 * A scheduler source for one scheduled settings table (canaries, config_scrapers, topologies):
 * every live resource of the local agent with a schedule (the `schedule` column, else
 * `spec.schedule`) becomes a job keyed `<resource_type>:<id>`. Remote agents' resources run on
 * those agents. Each run re-reads its row, so an edit applies from the next run even before the
 * scheduler reloads, and a deleted resource never runs again; each run is recorded in job history.
 *
 * The engines (health checks, scrapers, topology) add one source each with their runner:
 * `scheduler.addSource(resourceJobSource(db, 'canaries', runCanary))`. Writes through /api/db
 * reload the scheduler (see index.ts), so created, changed and deleted resources are picked up at once.
 */
export function resourceJobSource(
  db: Db,
  table: 'canaries' | 'config_scrapers' | 'topologies',
  runner: ResourceRunner,
): JobSource {
  const kind = kindByTable.get(table);
  if (!kind?.scheduled) throw new Error(`${table} is not a scheduled settings table`);
  const { jobName, resourceType } = kind.scheduled;
  const select = `SELECT id, name, namespace, agent_id, spec, coalesce(nullif(schedule, ''), spec->>'schedule') AS schedule FROM ${table}`;
  const live = `deleted_at IS NULL AND agent_id = '${LOCAL_AGENT_ID}' AND coalesce(nullif(schedule, ''), spec->>'schedule') IS NOT NULL`;
  return {
    name: table,
    async list() {
      const { rows } = await db.query<ScheduledResource>(`${select} WHERE ${live} ORDER BY id`);
      return rows.map((row) => ({
        key: `${resourceType}:${row.id}`,
        schedule: row.schedule,
        run: async () => {
          const current = (await db.query<ScheduledResource>(`${select} WHERE id = $1 AND ${live}`, [row.id])).rows[0];
          if (!current) return;
          await runJob(db, { name: jobName, resourceType, resourceId: current.id, agentId: current.agent_id }, (ctx) =>
            runner(current, ctx),
          );
        },
      }));
    },
  };
}
