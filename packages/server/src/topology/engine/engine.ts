/**
 * The topology engine: a run of one topology reads its spec's lookups (build.ts), writes the
 * components and the engine's links in one transaction (reconcile.ts) and rolls the statuses up in
 * the same transaction (rollup.ts), so a reader never sees a half-written tree. Runs come from the
 * scheduler (each slot claimed once across replicas, jobs/resource-source.ts) and from Run now;
 * each is one job-history row (TopologyRun) whose details.summary holds added, updated,
 * unchanged, deleted and errors.
 */
import { topologySpecProblems, topologySpecSchema, type TopologySpec } from '@watchdeck/core';
import type { Db, Queryable } from '#server/db/index.ts';
import { runJob } from '#server/jobs/index.ts';
import type { JobContext } from '#server/jobs/job-history.ts';
import { connectionByName, type SecretBox } from '#server/connections/index.ts';
import { buildDesired } from './build.ts';
import { writeComponents, type ReconcileCounts } from './reconcile.ts';
import { lockTopology, rollupTopology } from './rollup.ts';

export interface TopologyRow {
  id: string;
  name: string;
  agent_id: string;
  spec: Record<string, unknown>;
}

const TOPOLOGY_JOB_NAME = 'TopologyRun';
const TOPOLOGY_RESOURCE_TYPE = 'topology';
/** error messages kept in one run's job history; the counts stay exact */
const MAX_ERRORS = 50;
/** a run's lookups are stopped after this long */
const RUN_TIMEOUT_MS = 5 * 60_000;

export class TopologyEngine {
  constructor(
    private readonly db: Db,
    private readonly opts: { box?: SecretBox } = {},
  ) {}

  /** One run of a topology (scheduled or Run now), counted in `job`. */
  async run(topology: TopologyRow, job: JobContext): Promise<ReconcileCounts> {
    // written before the schema existed, or behind the API's back: refused with the field named
    const problems = topologySpecProblems(topology.spec ?? {});
    if (problems.length) throw new Error(`the spec is not valid: ${problems.join('; ')}`);
    const spec: TopologySpec = topologySpecSchema.parse(topology.spec ?? {});
    const signal = AbortSignal.timeout(RUN_TIMEOUT_MS);
    const built = await buildDesired(spec, topology.name, {
      q: this.db,
      signal,
      connection: (ref) => connectionByName(this.db, this.opts.box, ref),
    });
    const { counts, errors, rollupErrors } = await this.db.transaction(async (tx) => {
      await lockTopology(tx, topology.id);
      const w = await writeComponents(tx, topology, built.components, { complete: built.complete });
      const r = await rollupTopology(tx, topology.id);
      return { ...w, rollupErrors: r.errors };
    });
    const all = [...built.errors, ...errors, ...rollupErrors];
    counts.errors = all.length;
    all.slice(0, MAX_ERRORS).forEach((e) => job.error(e));
    if (all.length > MAX_ERRORS) job.warn(`${all.length - MAX_ERRORS} more errors not listed`);
    if (!built.complete) job.warn('some lookups could not be read: components not seen were not deleted');
    job.success(counts.added + counts.updated + counts.unchanged);
    job.details.summary = counts;
    return counts;
  }

  /** Run now: a run of one live topology, recorded like a scheduled one. */
  async runNow(id: string): Promise<{ id: string; status: string; details?: unknown } | undefined> {
    const { rows } = await this.db.query<TopologyRow>(
      `SELECT id, name, agent_id, spec FROM topologies WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    const topology = rows[0];
    if (!topology) return undefined;
    const run = await runJob(
      this.db,
      {
        name: TOPOLOGY_JOB_NAME,
        resourceType: TOPOLOGY_RESOURCE_TYPE,
        resourceId: topology.id,
        agentId: topology.agent_id,
      },
      (ctx) => this.run(topology, ctx),
    );
    const { rows: hist } = await this.db.query<{ details: unknown; error_count: number; success_count: number }>(
      `SELECT details, error_count, success_count FROM job_history WHERE id = $1`,
      [run.id],
    );
    return { id: run.id, status: run.status, ...hist[0] };
  }

  /** The roll-up alone (a check or catalog item attached to the topology changed). */
  rollup(q: Queryable, topologyId: string): ReturnType<typeof rollupTopology> {
    return rollupTopology(q, topologyId);
  }
}
