import { LOCAL_AGENT_ID } from '@watchdeck/core';
import { did, insertRows, ago, DAY, HOUR, type SeedContext, type Row } from './util.ts';
import { person, team, agent } from './people.ts';
import type { CatalogResult } from './catalog.ts';

const topologyId = (key: string): string => did('topology', key);
export const componentId = (key: string): string => did('component', key);

interface Comp {
  key: string;
  parent?: string;
  name: string;
  type: string;
  icon: string;
  labels?: Record<string, string>;
  properties?: Record<string, unknown>[];
  logs?: { name: string; type: string }[];
  configs?: string[];
  teams?: string[];
  hidden?: boolean;
  description?: string;
}

const url = (u: string) => ({ name: 'url', type: 'url', text: u, links: [{ label: 'Open', url: u }] });
const k8sLogs = [
  { name: 'kubernetes', type: 'kubernetes' },
  { name: 'loki', type: 'loki' },
];

const svc = (ns: string, name: string, o: Partial<Comp> = {}): Comp => ({
  key: `prod/${ns}/${name}`,
  parent: `prod/ns/${ns}`,
  name,
  type: 'Service',
  icon: 'kubernetes',
  labels: { namespace: ns, cluster: 'prod-eu-1', app: name },
  logs: k8sLogs,
  configs: [`k8s/prod-eu-1/Deployment/${ns}/${name}`],
  ...o,
});

/** The production and staging topologies: a tree of ~40 components. */
const COMPONENTS: Record<string, Comp[]> = {
  production: [
    {
      key: 'prod',
      name: 'Production',
      type: 'Environment',
      icon: 'cloud',
      labels: { env: 'production' },
      teams: ['sre'],
      description: 'Customer-facing production environment (eu-west-1)',
    },
    {
      key: 'prod/cluster',
      parent: 'prod',
      name: 'prod-eu-1',
      type: 'KubernetesCluster',
      icon: 'kubernetes',
      labels: { cluster: 'prod-eu-1' },
      configs: ['k8s/prod-eu-1/Cluster', 'aws/EKS::Cluster/prod-eu-1'],
      teams: ['platform'],
    },
    {
      key: 'prod/ns/payments',
      parent: 'prod/cluster',
      name: 'payments',
      type: 'Namespace',
      icon: 'namespace',
      labels: { namespace: 'payments' },
      teams: ['payments'],
      configs: ['k8s/prod-eu-1/Namespace/payments'],
    },
    svc('payments', 'payments-api', {
      teams: ['payments'],
      properties: [url('https://payments.example.com')],
    }),
    svc('payments', 'payments-worker', { teams: ['payments'] }),
    svc('payments', 'ledger', {
      teams: ['payments'],
    }),
    {
      key: 'prod/ns/checkout',
      parent: 'prod/cluster',
      name: 'checkout',
      type: 'Namespace',
      icon: 'namespace',
      labels: { namespace: 'checkout' },
      teams: ['payments'],
      configs: ['k8s/prod-eu-1/Namespace/checkout'],
    },
    svc('checkout', 'checkout-web', {
      properties: [url('https://checkout.example.com')],
    }),
    svc('checkout', 'cart-service'),
    {
      key: 'prod/ns/identity',
      parent: 'prod/cluster',
      name: 'identity',
      type: 'Namespace',
      icon: 'namespace',
      labels: { namespace: 'identity' },
      teams: ['platform'],
      configs: ['k8s/prod-eu-1/Namespace/identity'],
    },
    svc('identity', 'auth-service', { teams: ['platform'] }),
    svc('identity', 'user-service', { teams: ['platform'] }),
    {
      key: 'prod/ns/monitoring',
      parent: 'prod/cluster',
      name: 'monitoring',
      type: 'Namespace',
      icon: 'namespace',
      labels: { namespace: 'monitoring' },
      teams: ['sre'],
      configs: ['k8s/prod-eu-1/Namespace/monitoring'],
    },
    svc('monitoring', 'prometheus', {
      teams: ['sre'],
    }),
    svc('monitoring', 'grafana', {
      teams: ['sre'],
    }),
    svc('monitoring', 'alertmanager', { teams: ['sre'] }),
    {
      key: 'prod/ns/kube-system',
      parent: 'prod/cluster',
      name: 'kube-system',
      type: 'Namespace',
      icon: 'namespace',
      labels: { namespace: 'kube-system' },
      hidden: true,
      configs: ['k8s/prod-eu-1/Namespace/kube-system'],
    },
    svc('kube-system', 'coredns', { hidden: true }),
    {
      key: 'prod/nodes',
      parent: 'prod/cluster',
      name: 'Nodes',
      type: 'NodeGroup',
      icon: 'server',
    },
    ...[1, 2, 3, 4, 5, 6].map((n): Comp => ({
      key: `prod/nodes/${n}`,
      parent: 'prod/nodes',
      name: `eks-prod-eu-1-node-${n}`,
      type: 'Node',
      icon: 'server',
      configs: [`k8s/prod-eu-1/Node/${n - 1}`, `aws/EC2::Instance/eks-prod-eu-1-node-${n}`],
    })),
    { key: 'prod/data', parent: 'prod', name: 'Data stores', type: 'Group', icon: 'database', teams: ['database'] },
    {
      key: 'prod/data/orders-db',
      parent: 'prod/data',
      name: 'orders-db',
      type: 'Database',
      icon: 'postgres',
      configs: ['aws/RDS::DBInstance/orders-db'],
      teams: ['database'],
      logs: [{ name: 'postgres', type: 'cloudwatch' }],
    },
    {
      key: 'prod/data/orders-db-replica',
      parent: 'prod/data',
      name: 'orders-db-replica',
      type: 'Database',
      icon: 'postgres',
      configs: ['aws/RDS::DBInstance/orders-db-replica'],
      teams: ['database'],
    },
    {
      key: 'prod/data/ledger-db',
      parent: 'prod/data',
      name: 'ledger-db',
      type: 'Database',
      icon: 'mysql',
      configs: ['aws/RDS::DBInstance/ledger-db'],
      teams: ['database', 'payments'],
    },
    {
      key: 'prod/data/redis',
      parent: 'prod/data',
      name: 'payments-redis',
      type: 'Cache',
      icon: 'redis',
      configs: ['aws/ElastiCache::CacheCluster/payments-redis'],
    },
    {
      key: 'prod/data/kafka',
      parent: 'prod/data',
      name: 'kafka',
      type: 'MessageBroker',
      icon: 'kafka',
      configs: ['k8s/prod-eu-1/StatefulSet/data/kafka'],
    },
    {
      key: 'prod/data/mongo',
      parent: 'prod/data',
      name: 'catalog-mongo',
      type: 'Database',
      icon: 'mongodb',
    },
    { key: 'prod/edge', parent: 'prod', name: 'Edge', type: 'Group', icon: 'network', teams: ['platform'] },
    {
      key: 'prod/edge/gateway',
      parent: 'prod/edge',
      name: 'api-gateway',
      type: 'Gateway',
      icon: 'network',
      configs: ['aws/ElasticLoadBalancingV2::LoadBalancer/prod-public-alb'],
      properties: [url('https://api.example.com')],
    },
    {
      key: 'prod/edge/dns',
      parent: 'prod/edge',
      name: 'dns',
      type: 'DNS',
      icon: 'dns',
      configs: ['aws/Route53::HostedZone/example.com'],
    },
    {
      key: 'prod/edge/smtp',
      parent: 'prod/edge',
      name: 'smtp-relay',
      type: 'Service',
      icon: 'email',
    },
  ],
  staging: [
    {
      key: 'staging',
      name: 'Staging',
      type: 'Environment',
      icon: 'cloud',
      labels: { env: 'staging' },
      teams: ['platform'],
      description: 'Pre-production (us-east-1)',
    },
    {
      key: 'staging/cluster',
      parent: 'staging',
      name: 'staging-us-1',
      type: 'KubernetesCluster',
      icon: 'kubernetes',
      configs: ['k8s/staging-us-1/Cluster'],
    },
    {
      key: 'staging/payments',
      parent: 'staging/cluster',
      name: 'payments',
      type: 'Namespace',
      icon: 'namespace',
      configs: ['k8s/staging-us-1/Namespace/payments'],
    },
    {
      key: 'staging/checkout',
      parent: 'staging/cluster',
      name: 'checkout',
      type: 'Namespace',
      icon: 'namespace',
      configs: ['k8s/staging-us-1/Namespace/checkout'],
    },
    {
      key: 'staging/identity',
      parent: 'staging/cluster',
      name: 'identity',
      type: 'Namespace',
      icon: 'namespace',
      configs: ['k8s/staging-us-1/Namespace/identity'],
    },
  ],
};

/** Topologies, components (tree with paths), and their links to configs and teams. */
export async function seedTopology(ctx: SeedContext, catalog: CatalogResult): Promise<void> {
  const rng = ctx.rng;
  await insertRows(ctx, 'topologies', [
    {
      id: topologyId('production'),
      agent_id: agent('eu-west-prod'),
      name: 'production',
      namespace: 'default',
      icon: 'cloud',
      schedule: '@every 5m',
      labels: { env: 'production' },
      source: 'UI',
      spec: {
        schedule: '@every 5m',
        type: 'Environment',
        icon: 'cloud',
        components: [
          {
            name: 'prod-eu-1',
            type: 'KubernetesCluster',
            lookup: { configs: [{ types: ['Kubernetes::Cluster'], tagSelector: 'cluster=prod-eu-1' }] },
          },
        ],
        configs: [{ types: ['AWS::RDS::DBInstance'] }],
      },
      created_by: person('ava'),
      created_at: ago(ctx, 58 * DAY),
      updated_at: ago(ctx, 3 * DAY),
    },
    {
      id: topologyId('staging'),
      agent_id: LOCAL_AGENT_ID,
      name: 'staging',
      namespace: 'default',
      icon: 'cloud',
      schedule: '@every 30m',
      labels: { env: 'staging' },
      source: 'UI',
      spec: {
        schedule: '@every 30m',
        type: 'Environment',
        components: [
          {
            name: 'staging-us-1',
            type: 'KubernetesCluster',
            lookup: { configs: [{ types: ['Kubernetes::Cluster'], tagSelector: 'cluster=staging-us-1' }] },
          },
        ],
      },
      created_by: person('liam'),
      created_at: ago(ctx, 40 * DAY),
      updated_at: ago(ctx, 8 * DAY),
    },
  ]);

  const comps: Row[] = [];
  const configLinks: Row[] = [];
  const teamLinks: Row[] = [];
  for (const [topo, list] of Object.entries(COMPONENTS)) {
    const byKey = new Map(list.map((c) => [c.key, c]));
    for (const c of list) {
      const ancestors: string[] = [];
      let p = c.parent ? byKey.get(c.parent) : undefined;
      while (p) {
        ancestors.unshift(componentId(p.key));
        p = p.parent ? byKey.get(p.parent) : undefined;
      }
      const id = componentId(c.key);
      // No status, health, metrics or costs: the topology engine observes those when it runs.
      comps.push({
        id,
        topology_id: topologyId(topo),
        agent_id: topo === 'production' ? agent('eu-west-prod') : LOCAL_AGENT_ID,
        parent_id: c.parent ? componentId(c.parent) : null,
        path: ancestors.join('.'),
        name: c.name,
        title: c.name,
        type: c.type,
        icon: c.icon,
        description: c.description ?? null,
        labels: c.labels ?? {},
        properties: c.properties ?? [],
        logs: c.logs ?? [],
        hidden: c.hidden ?? false,
        external_id: `${topo}/${c.key}`,
        created_at: ago(ctx, rng.int(20, 55) * DAY),
        updated_at: ago(ctx, rng.int(1, 30) * HOUR),
      });
      for (const k of c.configs ?? [])
        configLinks.push({ component_id: id, config_id: catalog.config(k).id, selector_id: 'lookup' });
      for (const t of c.teams ?? [])
        teamLinks.push({ team_id: team(t), component_id: id, role: 'owner', selector_id: 'owner' });
    }
  }
  // A user-made catalog link (selector 'manual'), which the UI can unlink.
  configLinks.push({
    component_id: componentId('prod/payments/payments-api'),
    config_id: catalog.config('aws/IAM::Role/payments-api-irsa').id,
    selector_id: 'manual',
    created_by: person('liam'),
  });
  await insertRows(ctx, 'components', comps);
  await insertRows(ctx, 'component_relationships', [
    // kafka and redis also serve the payments namespace
    {
      component_id: componentId('prod/data/kafka'),
      relationship_id: componentId('prod/ns/payments'),
      selector_id: 'uses',
      relationship_path: 'prod.data.kafka',
    },
    {
      component_id: componentId('prod/data/redis'),
      relationship_id: componentId('prod/ns/checkout'),
      selector_id: 'uses',
      relationship_path: 'prod.data.redis',
    },
    {
      component_id: componentId('prod/data/orders-db'),
      relationship_id: componentId('prod/ns/payments'),
      selector_id: 'uses',
      relationship_path: 'prod.data.orders-db',
    },
  ]);
  await insertRows(ctx, 'config_component_relationships', configLinks, 'ON CONFLICT DO NOTHING');
  await insertRows(ctx, 'team_components', teamLinks, 'ON CONFLICT DO NOTHING');
}
