import { freshDriverDb, type BenchDriver } from '../support.ts';
import { TopologyEngine } from '#server/topology/index.ts';
import { runJob } from '#server/jobs/job-history.ts';
import type { Scenario } from './index.ts';

const COMPONENTS = 10_000;
const NAMESPACES = 100;
const CHANGED = COMPONENTS / 100;

/**
 * Issue 17's target: a reconcile of 10,000 generated components with 1% changed completes in
 * under 10 s. 10,000 catalog items in 100 namespaces; the spec has a static component per
 * namespace whose lookup makes one component per item (name, labels and properties from a
 * template). The first run adds everything; 100 items then change a label the template uses, and
 * the second run is timed: 100 lookups, comparing 10,100 components, updating 100 in one
 * transaction, and the roll-up of the whole tree. The counts are read from the run's summary.
 */
function topologyReconcile(driver: BenchDriver): Scenario {
  return {
    name: `topology: reconcile of ${COMPONENTS} generated components with ${CHANGED} changed (${driver})`,
    async run() {
      const bench = await freshDriverDb(driver);
      const { db } = bench;
      try {
        await db.query(
          `INSERT INTO config_items (type, config_class, name, labels, tags, health, config)
           SELECT 'Bench::App', 'App', 'app-' || i, jsonb_build_object('app', 'app-' || i, 'version', '1'),
                  jsonb_build_object('namespace', 'ns-' || (i % ${NAMESPACES})),
                  CASE WHEN i % 97 = 0 THEN 'warning' ELSE 'healthy' END,
                  jsonb_build_object('spec', jsonb_build_object('replicas', 1 + i % 3))
           FROM generate_series(0, ${COMPONENTS - 1}) AS i`,
        );
        const spec = {
          components: [
            {
              id: 'bench',
              name: 'Bench',
              type: 'Environment',
              components: Array.from({ length: NAMESPACES }, (_, n) => ({
                id: `ns-${n}`,
                name: `ns-${n}`,
                type: 'Namespace',
                components: [
                  {
                    lookup: { configs: { types: ['Bench::App'], tags: { namespace: `ns-${n}` } } },
                    template: {
                      name: '{{.item.name}}',
                      type: 'Service',
                      labels: { app: '{{.item.labels.app}}', version: '{{.item.labels.version}}' },
                      logs: [{ name: 'app-logs', type: 'file' }],
                      properties: [{ name: 'replicas', type: 'number', value: '{{.item.config.spec.replicas}}' }],
                    },
                  },
                ],
              })),
            },
          ],
        };
        const { rows } = await db.query<{ id: string; name: string; agent_id: string }>(
          `INSERT INTO topologies (name, spec) VALUES ('bench', $1::jsonb) RETURNING id, name, agent_id`,
          [JSON.stringify(spec)],
        );
        const topology = { ...rows[0], spec };
        const engine = new TopologyEngine(db);
        const run = async () => {
          const started = performance.now();
          const job = await runJob(
            db,
            { name: 'TopologyRun', resourceType: 'topology', resourceId: topology.id },
            (ctx) => engine.run(topology, ctx),
          );
          return { ms: performance.now() - started, status: job.status, counts: job.result };
        };
        const first = await run();
        await db.query(
          `UPDATE config_items SET labels = labels || '{"version": "2"}' WHERE (regexp_replace(name, '\\D', '', 'g'))::int % 100 = 0`,
        );
        const second = await run();
        const c = second.counts;
        const ok =
          second.ms < 10_000 &&
          second.status === 'SUCCESS' &&
          c?.updated === CHANGED &&
          c.added === 0 &&
          c.unchanged === COMPONENTS + NAMESPACES + 1 - CHANGED;
        return {
          driver: db.driver,
          result: `first run (${first.counts?.added} added) ${(first.ms / 1000).toFixed(2)} s; run with ${CHANGED} changed ${(second.ms / 1000).toFixed(2)} s (${c?.updated} updated, ${c?.unchanged} unchanged)`,
          target: `under 10 s, exactly ${CHANGED} updated`,
          met: ok ? 'yes' : 'no',
        };
      } finally {
        await bench.dispose();
      }
    },
  };
}

export const topologyReconcilePg = topologyReconcile('pg');
export const topologyReconcilePglite = topologyReconcile('pglite');
