import { did, insertRows, ago, DAY, HOUR, LOCAL_AGENT, type SeedContext, type Row } from './util.ts';
import { person, team, agent } from './people.ts';
import { checkId, canaryId, CANARIES } from './health.ts';
import { configId } from './catalog.ts';

export const topologyId = (key: string): string => did('topology', key);
export const componentId = (key: string): string => did('component', key);

interface Comp {
  key: string;
  parent?: string;
  name: string;
  type: string;
  icon: string;
  status?: 'healthy' | 'unhealthy' | 'warning' | 'unknown' | 'info';
  reason?: string;
  labels?: Record<string, string>;
  properties?: Record<string, unknown>[];
  logs?: { name: string; type: string }[];
  checks?: string[];
  configs?: string[];
  teams?: string[];
  hidden?: boolean;
  cost?: number;
  description?: string;
}

const cpu = (v: number, max: number) => ({
  name: 'cpu',
  type: 'text',
  value: v,
  max,
  unit: 'millicores',
  headline: true,
});
const mem = (v: number, max: number) => ({
  name: 'memory',
  type: 'text',
  value: v,
  max,
  unit: 'bytes',
  headline: true,
});
const ver = (v: string) => ({ name: 'version', type: 'text', text: v, headline: true });
const url = (u: string) => ({ name: 'url', type: 'url', text: u, links: [{ label: 'Open', url: u }] });
const GiB = 1024 ** 3;
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
  properties: [
    cpu(120 + name.length * 37, 1000),
    mem((0.2 + (name.length % 5) / 10) * GiB, GiB),
    ver(`1.${name.length}.${name.length % 4}`),
  ],
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
      properties: [ver('v1.29.4'), { name: 'nodes', type: 'text', value: 6, headline: true }],
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
      status: 'unhealthy',
      reason: '1 of 3 pods in CrashLoopBackOff; 5xx rate 13.7%',
      checks: ['payments-api', 'error-rate'],
      teams: ['payments'],
      properties: [cpu(870, 1000), mem(0.48 * GiB, 0.5 * GiB), ver('1.14.2'), url('https://payments.example.com')],
    }),
    svc('payments', 'payments-worker', { checks: ['payments-worker'], teams: ['payments'] }),
    svc('payments', 'ledger', {
      status: 'warning',
      reason: 'consumer lag above 10k',
      checks: ['ledger', 'consumer-lag', 'ledger-db'],
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
      checks: ['checkout-web', 'tls-checkout'],
      properties: [cpu(430, 1500), mem(0.7 * GiB, 1.5 * GiB), ver('3.2.0'), url('https://checkout.example.com')],
    }),
    svc('checkout', 'cart-service', {
      status: 'warning',
      reason: 'intermittent 503s',
      checks: ['cart-service', 'redis-cache'],
    }),
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
    svc('identity', 'auth-service', { checks: ['auth-service', 'auth-portal'], teams: ['platform'] }),
    svc('identity', 'user-service', { checks: ['user-service'], teams: ['platform'] }),
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
      checks: ['prometheus'],
      teams: ['sre'],
      properties: [cpu(640, 2000), mem(3.1 * GiB, 8 * GiB), ver('2.51.2')],
    }),
    svc('monitoring', 'grafana', {
      status: 'warning',
      reason: 'login page slow',
      checks: ['grafana', 'tls-grafana'],
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
    svc('kube-system', 'coredns', { checks: ['dns-api', 'dns-localhost'], hidden: true }),
    {
      key: 'prod/nodes',
      parent: 'prod/cluster',
      name: 'Nodes',
      type: 'NodeGroup',
      icon: 'server',
      properties: [{ name: 'count', type: 'text', value: 6, headline: true }],
    },
    ...[1, 2, 3, 4, 5, 6].map((n): Comp => ({
      key: `prod/nodes/${n}`,
      parent: 'prod/nodes',
      name: `eks-prod-eu-1-node-${n}`,
      type: 'Node',
      icon: 'server',
      status: n === 5 ? 'warning' : 'healthy',
      reason: n === 5 ? 'MemoryPressure' : undefined,
      configs: [`k8s/prod-eu-1/Node/${n - 1}`, `aws/EC2::Instance/eks-prod-eu-1-node-${n}`],
      checks: n === 1 ? ['disk-usage'] : undefined,
      properties: [cpu(1200 + n * 310, n <= 2 ? 8000 : 4000), mem((4 + n) * GiB, (n <= 2 ? 32 : 16) * GiB)],
      cost: (n <= 2 ? 0.428 : 0.214) / 60,
    })),
    { key: 'prod/data', parent: 'prod', name: 'Data stores', type: 'Group', icon: 'database', teams: ['database'] },
    {
      key: 'prod/data/orders-db',
      parent: 'prod/data',
      name: 'orders-db',
      type: 'Database',
      icon: 'postgres',
      checks: ['orders-db', 'orders-db-port'],
      configs: ['aws/RDS::DBInstance/orders-db'],
      teams: ['database'],
      properties: [ver('PostgreSQL 15.6'), { name: 'connections', type: 'text', value: 142, max: 500, headline: true }],
      cost: 0.72 / 60,
      logs: [{ name: 'postgres', type: 'cloudwatch' }],
    },
    {
      key: 'prod/data/orders-db-replica',
      parent: 'prod/data',
      name: 'orders-db-replica',
      type: 'Database',
      icon: 'postgres',
      status: 'warning',
      reason: 'replication lag 14s',
      checks: ['orders-db-replica'],
      configs: ['aws/RDS::DBInstance/orders-db-replica'],
      teams: ['database'],
      cost: 0.36 / 60,
    },
    {
      key: 'prod/data/ledger-db',
      parent: 'prod/data',
      name: 'ledger-db',
      type: 'Database',
      icon: 'mysql',
      checks: ['ledger-db'],
      configs: ['aws/RDS::DBInstance/ledger-db'],
      teams: ['database', 'payments'],
      cost: 0.28 / 60,
    },
    {
      key: 'prod/data/redis',
      parent: 'prod/data',
      name: 'payments-redis',
      type: 'Cache',
      icon: 'redis',
      checks: ['redis-cache'],
      configs: ['aws/ElastiCache::CacheCluster/payments-redis'],
      cost: 0.186 / 60,
    },
    {
      key: 'prod/data/kafka',
      parent: 'prod/data',
      name: 'kafka',
      type: 'MessageBroker',
      icon: 'kafka',
      status: 'warning',
      reason: 'broker kafka-2 under-replicated partitions',
      checks: ['kafka-broker', 'consumer-lag'],
      configs: ['k8s/prod-eu-1/StatefulSet/data/kafka'],
    },
    {
      key: 'prod/data/mongo',
      parent: 'prod/data',
      name: 'catalog-mongo',
      type: 'Database',
      icon: 'mongodb',
      checks: ['catalog-mongo'],
    },
    { key: 'prod/edge', parent: 'prod', name: 'Edge', type: 'Group', icon: 'network', teams: ['platform'] },
    {
      key: 'prod/edge/gateway',
      parent: 'prod/edge',
      name: 'api-gateway',
      type: 'Gateway',
      icon: 'network',
      checks: ['api-gateway', 'tls-gateway'],
      configs: ['aws/ElasticLoadBalancingV2::LoadBalancer/prod-public-alb'],
      properties: [url('https://api.example.com'), { name: 'rps', type: 'text', value: 1840, headline: true }],
    },
    {
      key: 'prod/edge/dns',
      parent: 'prod/edge',
      name: 'dns',
      type: 'DNS',
      icon: 'dns',
      checks: ['dns-api', 'resolver-ping'],
      configs: ['aws/Route53::HostedZone/example.com'],
    },
    {
      key: 'prod/edge/smtp',
      parent: 'prod/edge',
      name: 'smtp-relay',
      type: 'Service',
      icon: 'email',
      status: 'unhealthy',
      reason: 'connection refused on :25',
      checks: ['smtp-relay'],
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
      status: 'unknown',
      reason: 'agent us-east-staging offline',
      configs: ['k8s/staging-us-1/Cluster'],
    },
    {
      key: 'staging/payments',
      parent: 'staging/cluster',
      name: 'payments',
      type: 'Namespace',
      icon: 'namespace',
      configs: ['k8s/staging-us-1/Namespace/payments'],
      status: 'unknown',
    },
    {
      key: 'staging/checkout',
      parent: 'staging/cluster',
      name: 'checkout',
      type: 'Namespace',
      icon: 'namespace',
      configs: ['k8s/staging-us-1/Namespace/checkout'],
      status: 'unhealthy',
      reason: 'cart-service ImagePullBackOff',
    },
    {
      key: 'staging/identity',
      parent: 'staging/cluster',
      name: 'identity',
      type: 'Namespace',
      icon: 'namespace',
      configs: ['k8s/staging-us-1/Namespace/identity'],
      status: 'unknown',
    },
  ],
};

/** Topologies, components (tree with paths), and their links to checks, configs and teams. */
export async function seedTopology(ctx: SeedContext): Promise<void> {
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
      agent_id: LOCAL_AGENT,
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
  const checkLinks: Row[] = [];
  const configLinks: Row[] = [];
  const teamLinks: Row[] = [];
  const canaryOf = new Map(CANARIES.flatMap((c) => c.checks.map((k) => [k.key, c.key] as const)));
  const RANK = { healthy: 0, info: 0, unknown: 1, warning: 2, unhealthy: 3 } as const;
  for (const [topo, list] of Object.entries(COMPONENTS)) {
    const byKey = new Map(list.map((c) => [c.key, c]));
    // Roll health up the tree: a parent is at least as bad as its worst visible child.
    const rolled = new Map<string, Comp['status']>();
    const statusOf = (c: Comp): NonNullable<Comp['status']> => {
      if (rolled.has(c.key)) return rolled.get(c.key)!;
      let worst: NonNullable<Comp['status']> = c.status ?? 'healthy';
      for (const child of list.filter((x) => x.parent === c.key && !x.hidden)) {
        const s = statusOf(child);
        if (RANK[s] > RANK[worst]) worst = s;
      }
      rolled.set(c.key, worst);
      return worst;
    };
    for (const c of list) {
      const ancestors: string[] = [];
      let p = c.parent ? byKey.get(c.parent) : undefined;
      while (p) {
        ancestors.unshift(componentId(p.key));
        p = p.parent ? byKey.get(p.parent) : undefined;
      }
      const id = componentId(c.key);
      comps.push({
        id,
        topology_id: topologyId(topo),
        agent_id: topo === 'production' ? agent('eu-west-prod') : LOCAL_AGENT,
        parent_id: c.parent ? componentId(c.parent) : null,
        path: ancestors.join('.'),
        name: c.name,
        title: c.name,
        type: c.type,
        icon: c.icon,
        description: c.description ?? null,
        status: statusOf(c),
        status_reason: c.reason ?? (statusOf(c) !== 'healthy' ? 'rolled up from child components' : null),
        labels: c.labels ?? {},
        properties: c.properties ?? [],
        logs: c.logs ?? [],
        hidden: c.hidden ?? false,
        external_id: `${topo}/${c.key}`,
        cost_per_minute: c.cost ?? null,
        cost_total_1d: c.cost ? Number((c.cost * 1440).toFixed(4)) : null,
        cost_total_7d: c.cost ? Number((c.cost * 1440 * 7).toFixed(4)) : null,
        cost_total_30d: c.cost ? Number((c.cost * 1440 * 30).toFixed(4)) : null,
        created_at: ago(ctx, rng.int(20, 55) * DAY),
        updated_at: ago(ctx, rng.int(1, 30) * HOUR),
      });
      for (const k of c.checks ?? [])
        checkLinks.push({
          component_id: id,
          check_id: checkId(k),
          canary_id: canaryId(canaryOf.get(k)!),
          selector_id: 'checks',
        });
      for (const k of c.configs ?? [])
        configLinks.push({ component_id: id, config_id: configId(k), selector_id: 'lookup' });
      for (const t of c.teams ?? [])
        teamLinks.push({ team_id: team(t), component_id: id, role: 'owner', selector_id: 'owner' });
    }
  }
  // A user-made catalog link (selector 'manual'), which the UI can unlink.
  configLinks.push({
    component_id: componentId('prod/payments/payments-api'),
    config_id: configId('aws/IAM::Role/payments-api-irsa'),
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
  await insertRows(ctx, 'check_component_relationships', checkLinks, 'ON CONFLICT DO NOTHING');
  await insertRows(ctx, 'config_component_relationships', configLinks, 'ON CONFLICT DO NOTHING');
  await insertRows(ctx, 'team_components', teamLinks, 'ON CONFLICT DO NOTHING');

  // Checks also watch configs (the Checks tab of a config; check_summary_for_config).
  const checkConfigs: Row[] = [];
  for (const list of Object.values(COMPONENTS)) {
    for (const c of list) {
      for (const k of c.checks ?? []) {
        for (const cfg of c.configs ?? []) {
          checkConfigs.push({
            config_id: configId(cfg),
            check_id: checkId(k),
            canary_id: canaryId(canaryOf.get(k)!),
            selector_id: 'component',
          });
        }
      }
    }
  }
  await insertRows(ctx, 'check_config_relationships', checkConfigs, 'ON CONFLICT DO NOTHING');
}
