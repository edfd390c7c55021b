import { LOCAL_AGENT_ID } from '@watchdeck/core';
import { TopologyEngine } from '#server/topology/index.ts';
import { did, insertRows, ago, DAY, type SeedContext } from './util.ts';
import { person } from './people.ts';
import { inTransaction, type CatalogResult } from './catalog.ts';

const topologyId = (key: string): string => did('topology', key);

/**
 * The demo topology is produced by the topology engine, not seeded: the specs below are what a
 * person would write (static components, lookups of the catalog items the demo's scrapers found,
 * lookups of the demo's checks), the seed runs the engine once on each, and the rest of the demo
 * refers to components by their external id (`component(key)`), looked up after the run. Statuses
 * come from the engine's roll-up of the scraped health and the checks' real results.
 */
export interface TopologyResult {
  /** the component the engine made for a spec id ('prod/data/orders-db', 'staging') */
  component(key: string): string;
  /** the engine's roll-up again, once the demo's incidents name components (their summaries count them) */
  rollup(): Promise<void>;
}

/** Components with logs read them from the demo's file log backend. */
const LOGS = [{ name: 'app-logs', type: 'file' }];

const cfg = (types: string[], tags: Record<string, string>, name?: string) => ({
  types,
  tags,
  ...(name ? { name } : {}),
});

/** A namespace of prod-eu-1 and its services: one per Deployment the scraper found in it. */
function prodNamespace(ns: string, team: string | undefined, o: { hidden?: boolean } = {}) {
  return {
    id: `prod/ns/${ns}`,
    name: ns,
    type: 'Namespace',
    icon: 'namespace',
    labels: { namespace: ns, cluster: 'prod-eu-1' },
    ...(team ? { teams: [team] } : {}),
    ...(o.hidden ? { hidden: true } : {}),
    configs: [cfg(['Kubernetes::Namespace'], { cluster: 'prod-eu-1' }, ns)],
    components: [
      {
        lookup: { configs: cfg(['Kubernetes::Deployment'], { cluster: 'prod-eu-1', namespace: ns }) },
        template: {
          id: `prod/${ns}/{{.item.name}}`,
          name: '{{.item.name}}',
          type: 'Service',
          icon: 'kubernetes',
          labels: { namespace: ns, cluster: 'prod-eu-1', app: '{{.item.name}}' },
          ...(team ? { teams: [team] } : {}),
          ...(o.hidden ? { hidden: true } : {}),
          logs: LOGS,
          properties: [
            { name: 'replicas', type: 'number', value: '{{.item.config.spec.replicas}}', headline: true },
            { name: 'image', type: 'text', text: '{{.item.config.spec.template.spec.containers.0.image}}' },
          ],
        },
      },
    ],
  };
}

const PRODUCTION = {
  // checks that pass on their first run publish no event: the schedule picks their status up
  schedule: '@every 2m',
  components: [
    {
      id: 'prod',
      name: 'Production',
      type: 'Environment',
      icon: 'cloud',
      labels: { env: 'production' },
      teams: ['SRE'],
      description: 'Customer-facing production environment (eu-west-1)',
      properties: [
        { name: 'region', type: 'text', text: 'eu-west-1', headline: true },
        {
          name: 'status page',
          type: 'url',
          text: 'https://status.example.com',
          links: [{ label: 'Open', url: 'https://status.example.com' }],
        },
      ],
      components: [
        {
          id: 'prod/cluster',
          name: 'prod-eu-1',
          type: 'KubernetesCluster',
          icon: 'kubernetes',
          labels: { cluster: 'prod-eu-1' },
          teams: ['Platform'],
          configs: [
            cfg(['Kubernetes::Cluster'], { cluster: 'prod-eu-1' }),
            { types: ['AWS::EKS::Cluster'], name: 'prod-eu-1' },
          ],
          components: [
            prodNamespace('payments', 'Payments'),
            prodNamespace('checkout', 'Payments'),
            prodNamespace('identity', 'Platform'),
            prodNamespace('monitoring', 'SRE'),
            prodNamespace('kube-system', undefined, { hidden: true }),
            {
              id: 'prod/nodes',
              name: 'Nodes',
              type: 'NodeGroup',
              icon: 'server',
              components: [
                {
                  lookup: { configs: cfg(['Kubernetes::Node'], { cluster: 'prod-eu-1' }) },
                  template: {
                    id: 'prod/nodes/{{.item.name}}',
                    name: '{{.item.name}}',
                    type: 'Node',
                    icon: 'server',
                    labels: { cluster: 'prod-eu-1' },
                  },
                },
              ],
            },
          ],
        },
        {
          id: 'prod/data',
          name: 'Data stores',
          type: 'Group',
          icon: 'database',
          teams: ['Database'],
          components: [
            {
              lookup: { configs: { types: ['AWS::RDS::DBInstance'] } },
              template: {
                id: 'prod/data/{{.item.name}}',
                name: '{{.item.name}}',
                type: 'Database',
                icon: '{{.item.config.configuration.Engine}}',
                teams: ['Database'],
                logs: LOGS,
                properties: [
                  { name: 'engine', type: 'text', text: '{{.item.config.configuration.Engine}}', headline: true },
                  { name: 'class', type: 'text', text: '{{.item.config.configuration.DBInstanceClass}}' },
                ],
              },
            },
            {
              lookup: { configs: { types: ['AWS::ElastiCache::CacheCluster'] } },
              template: { id: 'prod/data/{{.item.name}}', name: '{{.item.name}}', type: 'Cache', icon: 'redis' },
            },
            {
              lookup: { configs: { types: ['AWS::SQS::Queue'] } },
              template: { id: 'prod/data/{{.item.name}}', name: '{{.item.name}}', type: 'Queue', icon: 'aws' },
            },
            {
              id: 'prod/data/kafka',
              name: 'kafka',
              type: 'MessageBroker',
              icon: 'kafka',
              logs: LOGS,
              configs: [cfg(['Kubernetes::StatefulSet'], { cluster: 'prod-eu-1' }, 'kafka')],
            },
          ],
        },
        {
          id: 'prod/edge',
          name: 'Edge',
          type: 'Group',
          icon: 'network',
          teams: ['Platform'],
          components: [
            {
              lookup: { configs: { types: ['AWS::ElasticLoadBalancingV2::LoadBalancer'] } },
              template: { id: 'prod/edge/{{.item.name}}', name: '{{.item.name}}', type: 'Gateway', icon: 'network' },
            },
            {
              lookup: { configs: { types: ['AWS::Route53::HostedZone'] } },
              template: { id: 'prod/edge/{{.item.name}}', name: '{{.item.name}}', type: 'DNS', icon: 'dns' },
            },
          ],
        },
        {
          // the console itself, watched by the demo's checks (demo/health.ts)
          id: 'prod/watchdeck',
          name: 'Watchdeck',
          type: 'Application',
          icon: 'server',
          teams: ['SRE'],
          components: [
            {
              id: 'prod/watchdeck/api',
              name: 'console api',
              type: 'Service',
              icon: 'http',
              logs: LOGS,
              checks: [{ labels: { component: 'api' } }],
            },
            {
              id: 'prod/watchdeck/database',
              name: 'console database',
              type: 'Database',
              icon: 'postgres',
              checks: [{ labels: { component: 'database' } }],
            },
            {
              id: 'prod/watchdeck/files',
              name: 'console files',
              type: 'Storage',
              icon: 'folder',
              checks: [{ labels: { component: 'files' } }],
            },
            {
              id: 'prod/watchdeck/probes',
              name: 'Synthetic probes',
              type: 'Group',
              icon: 'network',
              // the probes fail on purpose: shown as a warning, not as an outage
              statusExpr: "status == 'unhealthy' ? 'warning' : status",
              components: [
                {
                  lookup: { checks: { labels: { tier: 'network' } } },
                  template: {
                    id: 'prod/watchdeck/probes/{{.item.name}}',
                    name: '{{.item.name}}',
                    type: 'Probe',
                    icon: '{{.item.type}}',
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

const STAGING = {
  schedule: '@every 30m',
  components: [
    {
      id: 'staging',
      name: 'Staging',
      type: 'Environment',
      icon: 'cloud',
      labels: { env: 'staging' },
      teams: ['Platform'],
      description: 'Pre-production (us-east-1)',
      components: [
        {
          id: 'staging/cluster',
          name: 'staging-us-1',
          type: 'KubernetesCluster',
          icon: 'kubernetes',
          labels: { cluster: 'staging-us-1' },
          configs: [cfg(['Kubernetes::Cluster'], { cluster: 'staging-us-1' })],
          components: [
            {
              lookup: { configs: cfg(['Kubernetes::Namespace'], { cluster: 'staging-us-1' }) },
              template: {
                id: 'staging/{{.item.name}}',
                name: '{{.item.name}}',
                type: 'Namespace',
                icon: 'namespace',
                labels: { namespace: '{{.item.name}}', cluster: 'staging-us-1' },
                components: [
                  {
                    // rendered with the namespace: its Deployments
                    lookup: {
                      configs: cfg(['Kubernetes::Deployment'], {
                        cluster: 'staging-us-1',
                        namespace: '{{.item.name}}',
                      }),
                    },
                    template: { name: '{{.item.name}}', type: 'Service', icon: 'kubernetes', logs: LOGS },
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  ],
};

/**
 * Topologies (what a person configured), one real run of each through the engine, then what a
 * person adds by hand: the non-tree relationships (kafka, redis and orders-db serve namespaces)
 * and a manual catalog link.
 */
export async function seedTopology(ctx: SeedContext, catalog: CatalogResult): Promise<TopologyResult> {
  const specs = [
    { key: 'production', spec: PRODUCTION, labels: { env: 'production' }, by: 'ava', age: 58, edited: 3 },
    { key: 'staging', spec: STAGING, labels: { env: 'staging' }, by: 'liam', age: 40, edited: 8 },
  ] as const;
  await insertRows(
    ctx,
    'topologies',
    specs.map((t) => ({
      id: topologyId(t.key),
      agent_id: LOCAL_AGENT_ID,
      name: t.key,
      namespace: 'default',
      icon: 'cloud',
      schedule: t.spec.schedule,
      labels: t.labels,
      source: 'UI',
      spec: t.spec,
      created_by: person(t.by),
      created_at: ago(ctx, t.age * DAY),
      updated_at: ago(ctx, t.edited * DAY),
    })),
  );

  const engine = new TopologyEngine(inTransaction(ctx.tx));
  for (const t of specs) {
    const run = await engine.runNow(topologyId(t.key));
    if (run?.status !== 'SUCCESS') throw new Error(`demo topology ${t.key} did not succeed: ${JSON.stringify(run)}`);
  }

  const { rows } = await ctx.tx.query<{ id: string; external_id: string }>(
    `SELECT id, external_id FROM components WHERE topology_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [specs.map((t) => topologyId(t.key))],
  );
  const ids = new Map(rows.map((r) => [r.external_id, r.id]));
  const component = (key: string) => {
    const id = ids.get(key);
    if (!id) throw new Error(`demo refers to component ${key}, which the demo topologies did not produce`);
    return id;
  };

  await insertRows(
    ctx,
    'component_relationships',
    [
      ['prod/data/kafka', 'prod/ns/payments'],
      ['prod/data/payments-redis', 'prod/ns/checkout'],
      ['prod/data/orders-db', 'prod/ns/payments'],
    ].map(([from, to]) => ({
      component_id: component(from),
      relationship_id: component(to),
      selector_id: 'uses',
      relationship_path: from.replaceAll('/', '.'),
    })),
  );
  // a user-made catalog link (selector 'manual'), which the UI can unlink
  await insertRows(ctx, 'config_component_relationships', [
    {
      component_id: component('prod/payments/payments-api'),
      config_id: catalog.config('aws/IAM::Role/payments-api-irsa').id,
      selector_id: 'manual',
      created_by: person('liam'),
    },
  ]);
  const rollup = async () => {
    for (const t of specs) await engine.rollup(ctx.tx, topologyId(t.key));
  };
  return { component, rollup };
}
