import type { FastifyInstance } from 'fastify';
import { isUuid } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import { resourceJobSource, type ConsumedEvent, type ScheduledResource } from '#server/jobs/index.ts';
import type { WriteRegistration } from '#server/pgrest/index.ts';
import { scheduledKind } from '#server/settings/index.ts';
import type { Queryable } from '#server/db/index.ts';
import { TopologyEngine } from './engine/engine.ts';
import { topologiesOf } from './engine/rollup.ts';
import { topologyEngineRoutes } from './engine/routes.ts';
import { validateTopologyWrite } from './spec/validate.ts';

export { TopologyEngine } from './engine/engine.ts';

/**
 * The topology area, part one: the engine (issue 17). `topologies` run on their schedules through
 * the scheduler (claimed once across replicas, TopologyRun in job history) and on Run now
 * (POST /api/topology/{id}/run); a run reconciles the spec into components and rolls statuses up.
 * A check that passes or fails, or a catalog item whose health changes, rolls up again the
 * topologies it is attached to (consumer `topology.status`), which publishes
 * component.status.<status> for every component that changed; so does a change of an insight or
 * incident a component's summary counts (`topology.summary`, from sql/40-topology.sql).
 */
export interface TopologyEngineDeps {
  db: Db;
  box?: SecretBox;
}

/** Writes of topologies through /api/db: statusExpr checks after the spec schema's (settings). */
export const topologyWrites: readonly WriteRegistration[] = [{ table: 'topologies', check: validateTopologyWrite }];

const TOPOLOGY_STATUS_CONSUMER = 'topology.status';
/** published by sql/40-topology.sql when an insight or incident a component counts changes */
const SUMMARY_EVENT = 'topology.summary';
const STATUS_EVENTS = [
  SUMMARY_EVENT,
  'check.passed',
  'check.failed',
  'config.healthy',
  'config.unhealthy',
  'config.warning',
  'config.unknown',
];

/**
 * Rolls up the topologies a check or catalog item of the event is attached to, or the topology
 * whose summaries (insights, incidents) are stale.
 */
async function onStatusEvent(engine: TopologyEngine, event: ConsumedEvent, tx: Queryable): Promise<void> {
  const p = event.properties;
  if (event.name === SUMMARY_EVENT) {
    const topologyId = String(p.topology_id ?? '');
    if (isUuid(topologyId)) await engine.rollup(tx, topologyId);
    return;
  }
  const ref = event.name.startsWith('check.')
    ? { checkId: String(p.check_id ?? '') }
    : { configId: String(p.id ?? p.config_id ?? '') };
  const id = ref.checkId ?? ref.configId ?? '';
  if (!isUuid(id)) return;
  for (const topologyId of await topologiesOf(tx, ref)) await engine.rollup(tx, topologyId);
}

/** The engine, its route, its scheduler source and its event consumer. */
export function registerTopologyEngine(app: FastifyInstance, deps: TopologyEngineDeps): TopologyEngine {
  const engine = new TopologyEngine(deps.db, { box: deps.box });
  topologyEngineRoutes(app, { engine });
  app.engines.scheduler.addSource(
    resourceJobSource<ScheduledResource>(deps.db, scheduledKind('topologies'), (topology, ctx) =>
      engine.run(topology, ctx).then(() => undefined),
    ),
  );
  // database writes only: one transaction per batch (jobs/README.md)
  app.engines.queue.consume(
    TOPOLOGY_STATUS_CONSUMER,
    STATUS_EVENTS,
    (event, { done }) => done((tx) => onStatusEvent(engine, event, tx)),
    { batch: { size: 20 } },
  );
  return engine;
}
