import { LOCAL_AGENT_ID } from '@watchdeck/core';
import type { Db, Queryable } from '#server/db/index.ts';
import { ScraperEngine } from '#server/catalog/index.ts';
import { did, insertRows, ago, DAY, type SeedContext, type Row } from './util.ts';
import { person } from './people.ts';
import { CATALOG_SOURCES, demoFileRoots, demoGitopsRepo } from './gitops.ts';
import type { DemoTargets } from './health.ts';

const scraperId = (key: string): string => did('scraper', key);

/**
 * The demo catalog is scraped, not seeded: the scrapers below read exports shipped in
 * catalog-sources/ (`kubectl get -o yaml` of two clusters, an AWS Config inventory), and the demo
 * refers to what they found by its names (config keys below), looked up after the scrape.
 */
export interface CatalogResult {
  /** the scraped item a demo key names ('k8s/prod-eu-1/Deployment/payments/payments-api', 'aws/RDS::DBInstance/orders-db') */
  config(key: string): { id: string; name: string };
}

const KUBERNETES_SOURCES = `${CATALOG_SOURCES}kubernetes/`;
const AWS_SOURCES = `${CATALOG_SOURCES}aws/`;

/** Keys whose object has a generated name (pods, nodes): the name in the shipped export. */
const NAMED: Record<string, string> = {
  'k8s/prod-eu-1/Pod/payments/payments-api/1': 'payments-api-rmc9nwnfv9-swrhf',
  'k8s/prod-eu-1/Pod/identity/auth-service/0': 'auth-service-plbkp2xfm2-n8rfh',
  'k8s/prod-eu-1/Node/0': 'ip-10-0-1-220.eu-west-1.compute.internal',
  'k8s/prod-eu-1/Node/1': 'ip-10-0-2-29.eu-west-1.compute.internal',
  'k8s/prod-eu-1/Node/2': 'ip-10-0-3-191.eu-west-1.compute.internal',
  'k8s/prod-eu-1/Node/3': 'ip-10-0-1-117.eu-west-1.compute.internal',
  'k8s/prod-eu-1/Node/4': 'ip-10-0-2-152.eu-west-1.compute.internal',
  'k8s/prod-eu-1/Node/5': 'ip-10-0-3-237.eu-west-1.compute.internal',
};

/** A demo key as the lookup key of a scraped row: type, cluster, namespace, name. */
function lookupKey(key: string): string {
  const [source, ...rest] = key.split('/');
  if (source === 'aws') return ['AWS::' + rest[0], '', '', rest.slice(1).join('/')].join('|');
  const [cluster, kind, ...path] = rest;
  if (kind === 'Cluster') return ['Kubernetes::Cluster', cluster, '', cluster].join('|');
  const named = NAMED[key];
  if (kind === 'Node') return [`Kubernetes::Node`, cluster, '', named ?? '?'].join('|');
  if (kind === 'Namespace') return [`Kubernetes::Namespace`, cluster, '', path[0]].join('|');
  return [`Kubernetes::${kind}`, cluster, path[0], named ?? path[1]].join('|');
}

/** One file entry per kind of a `kubectl get <plural> -A -o yaml` export of a cluster. */
const KINDS: { kind: string; plural: string; health?: string }[] = [
  { kind: 'Namespace', plural: 'namespaces', health: "config.status.phase == 'Active' ? 'healthy' : 'warning'" },
  {
    kind: 'Node',
    plural: 'nodes',
    health:
      "config.status.conditions.exists(c, c.type != 'Ready' && c.status == 'True') ? 'warning' : config.status.conditions.exists(c, c.type == 'Ready' && c.status == 'True') ? 'healthy' : 'unhealthy'",
  },
  {
    kind: 'Deployment',
    plural: 'deployments',
    health:
      "(has(config.status.readyReplicas) ? config.status.readyReplicas : 0) < config.spec.replicas ? 'warning' : 'healthy'",
  },
  {
    kind: 'StatefulSet',
    plural: 'statefulsets',
    health:
      "(has(config.status.readyReplicas) ? config.status.readyReplicas : 0) < config.spec.replicas ? 'warning' : 'healthy'",
  },
  { kind: 'ReplicaSet', plural: 'replicasets', health: "config.spec.replicas == 0 ? 'unknown' : 'healthy'" },
  {
    kind: 'Pod',
    plural: 'pods',
    health:
      "config.status.phase == 'Pending' ? 'warning' : config.status.containerStatuses.exists(s, has(s.state.waiting)) ? 'unhealthy' : config.status.containerStatuses.exists(s, s.restartCount > 3) ? 'warning' : 'healthy'",
  },
  { kind: 'Service', plural: 'services' },
  { kind: 'ConfigMap', plural: 'configmaps' },
  { kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers' },
  { kind: 'Ingress', plural: 'ingresses' },
];

function clusterSpec(cluster: string, kinds: string[], schedule: string) {
  const common = {
    format: 'yaml',
    icon: 'kubernetes',
    id: '$.metadata.uid',
    name: '$.metadata.name',
    createFields: ['$.metadata.creationTimestamp'],
    labels: { app: '$.metadata.labels.app', team: '$.metadata.labels.team' },
    tags: { cluster, namespace: '$.metadata.namespace' },
  };
  return {
    file: [
      {
        ...common,
        paths: [`${KUBERNETES_SOURCES}${cluster}/cluster.yaml`],
        type: 'Kubernetes::Cluster',
        class: 'Cluster',
        labels: { env: '$.metadata.labels.env', region: '$.metadata.labels.region' },
        tags: { cluster },
      },
      ...KINDS.filter((k) => kinds.includes(k.kind)).map((k) => ({
        ...common,
        paths: [`${KUBERNETES_SOURCES}${cluster}/${k.plural}.yaml`],
        items: '$.items',
        type: `Kubernetes::${k.kind}`,
        class: k.kind,
        ...(k.health ? { health: k.health } : {}),
      })),
    ],
    schedule,
  };
}

const AWS_HEALTH = [
  "type == 'AWS::EC2::Instance' ? (config.configuration.State.Name == 'running' ? 'healthy' : 'unknown')",
  ": type == 'AWS::SQS::Queue' ? (name.endsWith('-dlq') && config.configuration.ApproximateNumberOfMessages > 0 ? 'warning' : 'healthy')",
  ": type == 'AWS::RDS::DBInstance' ? (has(config.configuration.ReplicaLag) && config.configuration.ReplicaLag > 10 ? 'warning' : 'healthy')",
  ": type == 'AWS::Lambda::Function' ? (config.configuration.LastUpdateStatus == 'Successful' ? 'healthy' : 'warning')",
  ": 'healthy'",
].join(' ');

function scraperSpecs(targets: DemoTargets) {
  const workloads = ['Namespace', 'Node', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Pod', 'Service', 'ConfigMap'];
  return [
    {
      key: 'kubernetes-prod-eu-1',
      spec: {
        ...clusterSpec('prod-eu-1', [...workloads, 'HorizontalPodAutoscaler', 'Ingress'], '@every 30m'),
        retention: { changes: [{ name: 'diff', age: '30d' }] },
      },
    },
    { key: 'kubernetes-staging-us-1', spec: clusterSpec('staging-us-1', [...workloads, 'Ingress'], '@every 1h') },
    {
      // an AWS Config advanced-query export (aws configservice select-resource-config)
      key: 'aws-prod-account',
      spec: {
        file: [
          {
            paths: [`${AWS_SOURCES}config-inventory.json`],
            format: 'json',
            icon: 'aws',
            items: '$.Results',
            type: '$.resourceType',
            id: '$.arn',
            name: '$.resourceName',
            createFields: ['$.resourceCreationTime'],
            labels: { Name: '$.tags.Name', env: '$.tags.env', team: '$.tags.team' },
            tags: { account: '$.accountId', region: '$.awsRegion' },
            health: AWS_HEALTH,
          },
        ],
        schedule: '@every 1h',
      },
    },
    // Kubernetes-style manifests shipped in the repository, and the demo's git repository, which
    // gets a new commit every few minutes after the first start (gitops.ts).
    {
      key: 'demo-manifests',
      spec: {
        file: [
          {
            paths: [`${CATALOG_SOURCES}manifests/**/*.yaml`],
            format: 'yaml',
            icon: 'kubernetes',
            type: '$.kind',
            id: '$.metadata.uid',
            name: '$.metadata.name',
            createFields: ['$.metadata.creationTimestamp'],
            tags: { namespace: '$.metadata.namespace', cluster: 'demo' },
            health:
              "config.kind in ['Deployment', 'StatefulSet'] ? (config.spec.replicas > 0 ? 'healthy' : 'warning') : 'unknown'",
          },
        ],
        schedule: '@every 5m',
        retention: { changes: [{ name: 'diff', age: '30d' }] },
      },
    },
    {
      key: 'demo-gitops',
      spec: {
        file: [
          {
            url: targets.gitopsRepo ?? demoGitopsRepo(undefined),
            paths: ['clusters/**/*.yaml'],
            format: 'yaml',
            icon: 'git',
            type: '$.kind',
            id: '$.metadata.uid',
            name: '$.metadata.name',
            createFields: ['$.metadata.creationTimestamp'],
            tags: { namespace: '$.metadata.namespace', cluster: 'prod-eu-1' },
          },
        ],
        schedule: '@every 1m',
      },
    },
  ];
}

/** The scrapers run during seeding: the exports the demo's incidents, topology and notifications refer to. */
const SCRAPED_AT_SEED = ['kubernetes-prod-eu-1', 'kubernetes-staging-us-1', 'aws-prod-account'];

/**
 * The seed's transaction as the engine's database: the engine's own transaction becomes a
 * savepoint, so its run (items, job history, events) commits or rolls back with the demo.
 */
export function inTransaction(tx: Queryable): Db {
  let n = 0;
  const db: Partial<Db> = {
    driver: 'pg',
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    async transaction(fn) {
      const sp = `demo_scrape_${++n}`;
      await tx.query(`SAVEPOINT ${sp}`);
      try {
        const r = await fn(tx);
        await tx.query(`RELEASE SAVEPOINT ${sp}`);
        return r;
      } catch (err) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${sp}`);
        throw err;
      }
    },
  };
  return db as Db;
}

interface ScrapedRow {
  id: string;
  type: string;
  name: string;
  config_class: string;
  cluster: string | null;
  namespace: string | null;
  config: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a scraped body
  created_at: string;
}

/**
 * Scrapers (what a person configured), one real run of each scraper the rest of the demo refers
 * to (items, job history and events come from the engine reading the shipped exports), then the
 * links between items a person would draw by hand (selector 'manual'): the file kind reads no
 * ownership, so owners, placement and the cross-account links are manual links.
 */
export async function seedCatalog(ctx: SeedContext, targets: DemoTargets): Promise<CatalogResult> {
  const specs = scraperSpecs(targets);
  await insertRows(
    ctx,
    'config_scrapers',
    specs.map((s, i) => ({
      id: scraperId(s.key),
      agent_id: LOCAL_AGENT_ID,
      name: s.key,
      namespace: 'default',
      spec: s.spec,
      schedule: s.spec.schedule,
      source: 'UI',
      description: null,
      labels: {},
      created_by: person(i % 2 ? 'lucas' : 'ava'),
      created_at: ago(ctx, (60 - i * 7) * DAY),
      updated_at: ago(ctx, (9 - i) * DAY),
    })),
  );

  const engine = new ScraperEngine(inTransaction(ctx.tx), {
    dataDir: 'memory://',
    fileRoots: demoFileRoots(targets.gitopsRepo ?? demoGitopsRepo(undefined)),
  });
  for (const key of SCRAPED_AT_SEED) {
    const run = await engine.runNow(scraperId(key));
    if (run?.status !== 'SUCCESS') throw new Error(`demo scraper ${key} did not succeed: ${JSON.stringify(run)}`);
  }

  const { rows } = await ctx.tx.query<ScrapedRow>(
    `SELECT id, type, name, config_class, tags->>'cluster' AS cluster, tags->>'namespace' AS namespace, config,
            created_at::text AS created_at
     FROM config_items WHERE scraper_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [SCRAPED_AT_SEED.map(scraperId)],
  );
  const found = new Map(rows.map((r) => [[r.type, r.cluster ?? '', r.namespace ?? '', r.name].join('|'), r]));
  const config = (key: string) => {
    const r = found.get(lookupKey(key));
    if (!r) throw new Error(`demo refers to ${key}, which the demo scrapers did not find`);
    return { id: r.id, name: r.name };
  };
  await insertRows(ctx, 'config_relationships', manualLinks(ctx, rows, config), 'ON CONFLICT DO NOTHING');
  return { config };
}

function manualLinks(ctx: SeedContext, rows: ScrapedRow[], config: CatalogResult['config']): Row[] {
  const links: Row[] = [];
  const at = new Map(rows.map((r) => [r.id, r.created_at]));
  const link = (from: string | undefined, to: string | undefined, relation: string, who: 'lucas' | 'ava' = 'lucas') => {
    if (!from || !to || from === to) return;
    links.push({
      config_id: from,
      related_id: to,
      relation,
      selector_id: 'manual',
      created_by: person(who),
      created_at: at.get(to) ?? ago(ctx, DAY),
    });
  };
  const k8s = rows.filter((r) => r.type.startsWith('Kubernetes::'));
  const byName = new Map(k8s.map((r) => [[r.cluster, r.namespace ?? '', r.config_class, r.name].join('|'), r.id]));
  const find = (r: ScrapedRow, cls: string, name: string, ns = r.namespace ?? '') =>
    byName.get([r.cluster, ns, cls, name].join('|'));
  for (const r of k8s) {
    const cluster = find(r, 'Cluster', r.cluster ?? '', '');
    if (r.config_class === 'Namespace' || r.config_class === 'Node') link(cluster, r.id, `Cluster${r.config_class}`);
    const owner = r.config?.metadata?.ownerReferences?.[0];
    if (owner) link(find(r, owner.kind, owner.name), r.id, `${owner.kind}${r.config_class}`);
    else if (r.namespace) link(find(r, 'Namespace', r.namespace, ''), r.id, `Namespace${r.config_class}`);
    if (r.config_class === 'Pod') {
      link(find(r, 'Node', r.config?.spec?.nodeName ?? '', ''), r.id, 'NodePod');
      link(find(r, 'Service', r.config?.metadata?.labels?.app ?? ''), r.id, 'ServicePod');
    }
  }
  const aws = rows.filter((r) => r.type.startsWith('AWS::'));
  const nodes = new Map(k8s.filter((r) => r.config_class === 'Node').map((r) => [r.name, r.id]));
  for (const r of aws) {
    const c = r.config?.configuration ?? {};
    if (r.type === 'AWS::EC2::Instance') link(r.id, nodes.get(c.PrivateDnsName), 'InstanceNode');
    if (c.ReadReplicaSourceDBInstanceIdentifier)
      link(config(`aws/RDS::DBInstance/${c.ReadReplicaSourceDBInstanceIdentifier}`).id, r.id, 'ReadReplica');
  }
  const id = (key: string) => config(key).id;
  link(id('aws/EKS::Cluster/prod-eu-1'), id('k8s/prod-eu-1/Cluster'), 'EKSCluster');
  const api = 'k8s/prod-eu-1/Deployment/payments/payments-api';
  link(id(api), id('aws/RDS::DBInstance/orders-db'), 'uses', 'ava');
  link(id('k8s/prod-eu-1/Deployment/payments/ledger'), id('aws/RDS::DBInstance/ledger-db'), 'uses', 'ava');
  link(id(api), id('aws/ElastiCache::CacheCluster/payments-redis'), 'uses', 'ava');
  link(
    id('k8s/prod-eu-1/Deployment/payments/payments-worker'),
    id('aws/SQS::Queue/payments-events'),
    'consumes',
    'ava',
  );
  link(id('aws/IAM::Role/payments-api-irsa'), id(api), 'assumedBy', 'ava');
  return links;
}
