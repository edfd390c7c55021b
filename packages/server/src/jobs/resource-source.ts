import { LOCAL_AGENT_ID } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { runJob, type JobContext } from './job-history.ts';
import type { JobSource } from './scheduler.ts';

/** The columns every scheduled resource has; `schedule` is the column, else `spec.schedule`. */
export interface ScheduledResource {
  id: string;
  name: string;
  namespace: string;
  agent_id: string;
  spec: Record<string, unknown>;
  schedule: string;
}

/** What an engine does for one run of one resource; counts and errors go through ctx. */
export type ResourceRunner<R extends ScheduledResource = ScheduledResource> = (
  resource: R,
  ctx: JobContext,
) => Promise<void>;

export interface ResourceSourceOptions {
  /** a scheduled settings table: canaries, config_scrapers, topologies */
  table: string;
  /** the job-history name of a run (`CanaryRun`) */
  jobName: string;
  /** the job-history resource type, also the job key's prefix (`canary:<id>`) */
  resourceType: string;
  /**
   * What else the runner needs, as SQL select items over the row aliased `r` (`r.labels`, a
   * subquery of its children): read in the run's one read of the row, not in a second one.
   */
  columns?: string;
}

/**
 * A scheduler source for one scheduled table: every live resource of the local agent with a
 * schedule becomes a job keyed `<resource_type>:<id>`. Remote agents' resources run on those
 * agents. Each run reads its row once and hands it to the runner: an edit applies from the next
 * run even before the scheduler reloads, and a deleted resource never runs again. Each run is
 * recorded in job history.
 *
 * The areas add one source each with their runner (health: canaries; later scrapers, topology):
 * `scheduler.addSource(resourceJobSource(db, { table, jobName, resourceType }, runCanary))`.
 */
export function resourceJobSource<R extends ScheduledResource = ScheduledResource>(
  db: Db,
  opts: ResourceSourceOptions,
  runner: ResourceRunner<R>,
): JobSource {
  const { table, jobName, resourceType } = opts;
  // the table is the area's constant, never input; checked so a typo fails at start-up
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`${table} is not a table name`);
  const schedule = `coalesce(nullif(r.schedule, ''), r.spec->>'schedule')`;
  const live = `r.deleted_at IS NULL AND r.agent_id = '${LOCAL_AGENT_ID}' AND ${schedule} IS NOT NULL`;
  const runSelect = `SELECT r.id, r.name, r.namespace, r.agent_id, r.spec, ${schedule} AS schedule${opts.columns ? `, ${opts.columns}` : ''}
    FROM ${table} r WHERE r.id = $1 AND ${live}`;
  return {
    name: table,
    async list() {
      const { rows } = await db.query<{ id: string; schedule: string }>(
        `SELECT r.id, ${schedule} AS schedule FROM ${table} r WHERE ${live} ORDER BY r.id`,
      );
      return rows.map((row) => ({
        key: `${resourceType}:${row.id}`,
        schedule: row.schedule,
        run: async () => {
          const current = (await db.query<R>(runSelect, [row.id])).rows[0];
          if (!current) return;
          await runJob(db, { name: jobName, resourceType, resourceId: current.id, agentId: current.agent_id }, (ctx) =>
            runner(current, ctx),
          );
        },
      }));
    },
  };
}
