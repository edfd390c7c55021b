import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.ts';
import type { SecretBox } from '../connections/index.ts';
import { resourceJobSource, runJob, type JobSource, type ScheduledResource } from '../jobs/index.ts';
import { scheduledKind } from '../settings/index.ts';
import { connectionResolver } from './connections.ts';
import { HealthEngine, type HealthEngineOptions } from './engine.ts';
import { healthRoutes } from './routes.ts';
import { pruneCheckStatuses, rollUp } from './rollups.ts';
import { resolveAllRelationships } from './relationships.ts';
import { syncPendingCanaries, type CanaryRow, type CheckRow } from './sync.ts';

export { HealthEngine } from './engine.ts';
export { checkGauges, type CheckGauge, type CheckIdentity } from './gauges.ts';
/**
 * The health area (issue 5): canaries produce checks, the engine runs them on their schedules
 * through the scheduler (claimed once across replicas, recorded in job history as CanaryRun) and
 * on Run Now, and the /api/canary routes read the results. Housekeeping: roll-ups every 5 minutes,
 * retention daily, relationship selectors every 10 minutes.
 *
 * Layout: spec.ts (spec -> check definitions), sync.ts (checks table), engine.ts (running),
 * checks/ (one runner per type), ../cel (test/display expressions, shared with incidents),
 * record.ts (statuses, transitions, events), rollups.ts, summary.ts, graph.ts, relationships.ts,
 * connections.ts, routes.ts.
 */
export interface HealthDeps {
  db: Db;
  box?: SecretBox;
  /** raw check_statuses older than this are deleted (roll-ups stay) */
  retentionDays: number;
  engine?: HealthEngineOptions;
  /** ms a computed summary answers identical requests (routes.ts; 0: only those in flight) */
  summaryCacheTtlMs?: number;
}

export function healthJobSources(
  db: Db,
  engine: HealthEngine,
  deps: HealthDeps,
  onError: (err: unknown, what: string) => void,
): JobSource[] {
  // One read per run: the scheduling columns with what the run needs besides (labels, icon and
  // the canary's live checks).
  const canaries = resourceJobSource<ScheduledResource & CanaryRow & { checks: CheckRow[] }>(
    db,
    {
      ...scheduledKind('canaries'),
      columns: `r.icon, r.labels,
        coalesce((SELECT json_agg(json_build_object('id', c.id, 'type', c.type, 'name', c.name, 'spec', c.spec, 'labels', c.labels, 'status', c.status))
                  FROM checks c WHERE c.canary_id = r.id AND c.deleted_at IS NULL), '[]') AS checks`,
    },
    async ({ checks, ...canary }, ctx) => void (await engine.runCanary(canary, ctx, checks)),
  );
  return [
    {
      name: canaries.name,
      // Checks of new and edited canaries appear before their first run.
      async list() {
        await syncPendingCanaries(db, (err, id) => onError(err, `canary ${id}`));
        // Spread canaries sharing an interval over it: 5,000 '@every 30s' canaries then start a
        // few per 10 ms instead of 5,000 at once (claims, job history and results included).
        return (await canaries.list()).map((job) => ({ ...job, spread: true }));
      },
    },
    {
      name: 'health-housekeeping',
      list: async () => [
        { key: 'health:rollup', schedule: '@every 5m', run: async () => void (await rollUp(db)) },
        {
          key: 'health:retention',
          schedule: '@every 24h',
          run: async () => {
            await runJob(db, { name: 'CleanupCheckStatuses' }, async (ctx) => {
              const { raw, hourly } = await pruneCheckStatuses(db, deps.retentionDays);
              ctx.success(raw + hourly);
              ctx.details.summary = { raw, hourly };
            });
          },
        },
        {
          key: 'health:relationships',
          schedule: '@every 10m',
          run: async () => void (await resolveAllRelationships(db)),
        },
      ],
    },
  ];
}

/** Routes, and the scheduler sources; the engines start with the others (main.ts). */
export function registerHealth(app: FastifyInstance, deps: HealthDeps): HealthEngine {
  const engine = new HealthEngine(deps.db, connectionResolver(deps.db, deps.box), deps.engine);
  healthRoutes(app, { db: deps.db, engine, cacheTtlMs: deps.summaryCacheTtlMs });
  for (const source of healthJobSources(deps.db, engine, deps, (err, what) =>
    app.log.error({ err }, `health: ${what} failed`),
  )) {
    app.engines.scheduler.addSource(source);
  }
  return engine;
}
