import { LOCAL_AGENT_ID } from '@watchdeck/core';
import { did, insertRows, ago, DAY, HOUR, type SeedContext, type Row, type Rng } from './util.ts';
import { person, agent } from './people.ts';
import { CATALOG_SOURCES, demoGitopsRepo } from './gitops.ts';
import type { DemoTargets } from './health.ts';

/** Config item keys look like 'k8s/prod-eu-1/Deployment/payments/payments-api' or 'aws/EC2::Instance/bastion'. */
export const configId = (key: string): string => did('config', key);
const scraperId = (key: string): string => did('scraper', key);

interface SeededConfig {
  key: string;
  id: string;
  type: string;
  name: string;
  health: string | null;
}

export interface CatalogResult {
  configs: Map<string, SeededConfig>;
}

interface Item {
  key: string;
  scraper: string;
  agent: string;
  parent?: string;
  type: string;
  config_class: string;
  name: string;
  external_id: string;
  tags: Record<string, string>;
  labels: Record<string, string>;
  config: Record<string, unknown>;
  status: string;
  health: 'healthy' | 'unhealthy' | 'warning' | 'unknown';
  ready?: boolean;
  description?: string;
  cost?: number; // cost per minute, USD
  ageDays: number;
  deletedDaysAgo?: number;
  image?: string;
  node?: string;
}

const K8S_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const k8sSuffix = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.pick([...K8S_CHARS])).join('');

interface WorkloadDef {
  name: string;
  replicas: number;
  image: string;
  team: string;
  kind?: 'Deployment' | 'StatefulSet';
}

const PROD_NAMESPACES: Record<string, WorkloadDef[]> = {
  payments: [
    { name: 'payments-api', replicas: 3, image: 'ghcr.io/example/payments-api', team: 'payments' },
    { name: 'payments-worker', replicas: 2, image: 'ghcr.io/example/payments-worker', team: 'payments' },
    { name: 'ledger', replicas: 2, image: 'ghcr.io/example/ledger', team: 'payments' },
  ],
  checkout: [
    { name: 'checkout-web', replicas: 3, image: 'ghcr.io/example/checkout-web', team: 'payments' },
    { name: 'cart-service', replicas: 2, image: 'ghcr.io/example/cart-service', team: 'payments' },
  ],
  identity: [
    { name: 'auth-service', replicas: 2, image: 'ghcr.io/example/auth-service', team: 'platform' },
    { name: 'user-service', replicas: 2, image: 'ghcr.io/example/user-service', team: 'platform' },
  ],
  monitoring: [
    { name: 'prometheus', replicas: 1, image: 'quay.io/prometheus/prometheus', team: 'sre' },
    { name: 'grafana', replicas: 1, image: 'docker.io/grafana/grafana', team: 'sre' },
    { name: 'alertmanager', replicas: 1, image: 'quay.io/prometheus/alertmanager', team: 'sre' },
  ],
  'kube-system': [
    { name: 'coredns', replicas: 2, image: 'registry.k8s.io/coredns/coredns', team: 'platform' },
    { name: 'metrics-server', replicas: 1, image: 'registry.k8s.io/metrics-server/metrics-server', team: 'platform' },
  ],
  'ingress-nginx': [
    {
      name: 'ingress-nginx-controller',
      replicas: 2,
      image: 'registry.k8s.io/ingress-nginx/controller',
      team: 'platform',
    },
  ],
  data: [
    { name: 'kafka', replicas: 3, image: 'docker.io/bitnami/kafka', team: 'payments', kind: 'StatefulSet' },
    { name: 'redis', replicas: 1, image: 'docker.io/bitnami/redis', team: 'payments', kind: 'StatefulSet' },
  ],
};

const STAGING_NAMESPACES: Record<string, WorkloadDef[]> = {
  payments: [
    { name: 'payments-api', replicas: 1, image: 'ghcr.io/example/payments-api', team: 'payments' },
    { name: 'payments-worker', replicas: 1, image: 'ghcr.io/example/payments-worker', team: 'payments' },
    { name: 'ledger', replicas: 1, image: 'ghcr.io/example/ledger', team: 'payments' },
  ],
  checkout: [
    { name: 'checkout-web', replicas: 1, image: 'ghcr.io/example/checkout-web', team: 'payments' },
    { name: 'cart-service', replicas: 1, image: 'ghcr.io/example/cart-service', team: 'payments' },
  ],
  identity: [
    { name: 'auth-service', replicas: 1, image: 'ghcr.io/example/auth-service', team: 'platform' },
    { name: 'user-service', replicas: 1, image: 'ghcr.io/example/user-service', team: 'platform' },
  ],
};

/** Which pods are not happy, by "cluster/deployment/index". */
const POD_TROUBLE: Record<string, { status: string; health: Item['health']; ready: boolean }> = {
  'prod-eu-1/payments-api/1': { status: 'CrashLoopBackOff', health: 'unhealthy', ready: false },
  'prod-eu-1/ledger/1': { status: 'Pending', health: 'warning', ready: false },
  'prod-eu-1/auth-service/0': { status: 'Running', health: 'warning', ready: true },
  'staging-us-1/cart-service/0': { status: 'ImagePullBackOff', health: 'unhealthy', ready: false },
  'prod-eu-1/kafka/2': { status: 'Running', health: 'warning', ready: true },
};

function version(rng: Rng): string {
  return `${rng.int(1, 3)}.${rng.int(0, 24)}.${rng.int(0, 9)}`;
}

function buildItems(ctx: SeedContext): Item[] {
  const rng = ctx.rng;
  const items: Item[] = [];
  const add = (i: Item) => {
    items.push(i);
    return i;
  };

  const clusters = [
    {
      name: 'prod-eu-1',
      scraper: 'kubernetes-prod-eu-1',
      agent: agent('eu-west-prod'),
      env: 'production',
      region: 'eu-west-1',
      nodes: 6,
      ns: PROD_NAMESPACES,
      net: '10.0',
    },
    {
      name: 'staging-us-1',
      scraper: 'kubernetes-staging-us-1',
      agent: agent('us-east-staging'),
      env: 'staging',
      region: 'us-east-1',
      nodes: 3,
      ns: STAGING_NAMESPACES,
      net: '10.20',
    },
  ];

  for (const c of clusters) {
    const base = `k8s/${c.name}`;
    const tags = { cluster: c.name };
    const cluster = add({
      key: `${base}/Cluster`,
      scraper: c.scraper,
      agent: c.agent,
      type: 'Kubernetes::Cluster',
      config_class: 'Cluster',
      name: c.name,
      external_id: `${c.name}`,
      tags,
      labels: { env: c.env, region: c.region },
      status: 'Running',
      health: 'healthy',
      ageDays: 400,
      config: {
        apiVersion: 'v1',
        kind: 'Cluster',
        metadata: { name: c.name },
        version: 'v1.29.4-eks-036c24b',
        platform: 'eks',
        region: c.region,
      },
    });
    const nodes: Item[] = [];
    for (let n = 0; n < c.nodes; n++) {
      const ip = `${c.net}.${(n % 3) + 1}.${rng.int(10, 250)}`;
      const name =
        c.region === 'us-east-1'
          ? `ip-${ip.replace(/\./g, '-')}.ec2.internal`
          : `ip-${ip.replace(/\./g, '-')}.${c.region}.compute.internal`;
      const pressure = c.name === 'prod-eu-1' && n === 4;
      nodes.push(
        add({
          key: `${base}/Node/${n}`,
          scraper: c.scraper,
          agent: c.agent,
          parent: cluster.key,
          type: 'Kubernetes::Node',
          config_class: 'Node',
          name,
          external_id: `node/${name}`,
          tags,
          labels: {
            'kubernetes.io/os': 'linux',
            'node.kubernetes.io/instance-type': n < 2 ? 'm5.2xlarge' : 'm5.xlarge',
            'topology.kubernetes.io/zone': `${c.region}${'abc'[n % 3]}`,
          },
          status: pressure ? 'MemoryPressure' : 'Ready',
          health: pressure ? 'warning' : 'healthy',
          ready: true,
          ageDays: rng.int(20, 120),
          config: {
            apiVersion: 'v1',
            kind: 'Node',
            metadata: { name, labels: { 'kubernetes.io/os': 'linux' } },
            spec: { providerID: `aws:///${c.region}${'abc'[n % 3]}/i-0${rng.hex(16)}` },
            status: {
              capacity: { cpu: n < 2 ? '8' : '4', memory: n < 2 ? '32Gi' : '16Gi', pods: '58' },
              nodeInfo: { kubeletVersion: 'v1.29.4-eks-036c24b', osImage: 'Amazon Linux 2023' },
              addresses: [{ type: 'InternalIP', address: ip }],
            },
          },
        }),
      );
    }
    let podNo = 0;
    for (const [ns, workloads] of Object.entries(c.ns)) {
      const nsTags = { cluster: c.name, namespace: ns };
      const nsItem = add({
        key: `${base}/Namespace/${ns}`,
        scraper: c.scraper,
        agent: c.agent,
        parent: cluster.key,
        type: 'Kubernetes::Namespace',
        config_class: 'Namespace',
        name: ns,
        external_id: `namespace/${ns}`,
        tags,
        labels: { 'kubernetes.io/metadata.name': ns },
        status: 'Active',
        health: 'healthy',
        ageDays: 380,
        config: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns, labels: { 'kubernetes.io/metadata.name': ns } },
          status: { phase: 'Active' },
        },
      });
      for (const w of workloads) {
        const kind = w.kind ?? 'Deployment';
        const ver = version(rng);
        const image = `${w.image}:${ver}`;
        const labels = { app: w.name, 'app.kubernetes.io/name': w.name, 'app.kubernetes.io/part-of': ns, team: w.team };
        const trouble = Object.keys(POD_TROUBLE).some(
          (k) => k.startsWith(`${c.name}/${w.name}/`) && POD_TROUBLE[k].health === 'unhealthy',
        );
        const wl = add({
          key: `${base}/${kind}/${ns}/${w.name}`,
          scraper: c.scraper,
          agent: c.agent,
          parent: nsItem.key,
          type: `Kubernetes::${kind}`,
          config_class: kind,
          name: w.name,
          external_id: `${kind.toLowerCase()}/${ns}/${w.name}`,
          tags: nsTags,
          labels,
          image,
          status: trouble ? 'Degraded' : 'Running',
          health: trouble ? 'warning' : 'healthy',
          ready: !trouble,
          ageDays: rng.int(30, 300),
          config: {
            apiVersion: 'apps/v1',
            kind,
            metadata: { name: w.name, namespace: ns, labels },
            spec: {
              replicas: w.replicas,
              selector: { matchLabels: { app: w.name } },
              template: {
                metadata: { labels: { app: w.name } },
                spec: {
                  containers: [
                    {
                      name: w.name,
                      image,
                      ports: [{ containerPort: 8080 }],
                      resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
                    },
                  ],
                },
              },
            },
            status: { replicas: w.replicas, readyReplicas: trouble ? w.replicas - 1 : w.replicas },
          },
        });
        add({
          key: `${base}/Service/${ns}/${w.name}`,
          scraper: c.scraper,
          agent: c.agent,
          parent: nsItem.key,
          type: 'Kubernetes::Service',
          config_class: 'Service',
          name: w.name,
          external_id: `service/${ns}/${w.name}`,
          tags: nsTags,
          labels,
          status: 'Active',
          health: 'healthy',
          ageDays: wl.ageDays,
          config: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: w.name, namespace: ns },
            spec: {
              type: 'ClusterIP',
              clusterIP: `172.20.${rng.int(0, 255)}.${rng.int(1, 254)}`,
              ports: [{ port: 80, targetPort: 8080 }],
              selector: { app: w.name },
            },
          },
        });
        add({
          key: `${base}/ConfigMap/${ns}/${w.name}`,
          scraper: c.scraper,
          agent: c.agent,
          parent: nsItem.key,
          type: 'Kubernetes::ConfigMap',
          config_class: 'ConfigMap',
          name: `${w.name}-config`,
          external_id: `configmap/${ns}/${w.name}-config`,
          tags: nsTags,
          labels,
          status: 'Active',
          health: 'healthy',
          ageDays: wl.ageDays,
          config: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `${w.name}-config`, namespace: ns },
            data: { LOG_LEVEL: 'info', HTTP_PORT: '8080', UPSTREAM_TIMEOUT: '5s' },
          },
        });
        // Pods: Deployments through a current ReplicaSet (plus an old one with deleted pods).
        let owner = wl;
        if (kind === 'Deployment') {
          const hash = k8sSuffix(rng, 10);
          owner = add({
            key: `${base}/ReplicaSet/${ns}/${w.name}/current`,
            scraper: c.scraper,
            agent: c.agent,
            parent: wl.key,
            type: 'Kubernetes::ReplicaSet',
            config_class: 'ReplicaSet',
            name: `${w.name}-${hash}`,
            external_id: `replicaset/${ns}/${w.name}-${hash}`,
            tags: nsTags,
            labels,
            status: 'Running',
            health: 'healthy',
            ageDays: rng.int(1, 20),
            config: {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              metadata: { name: `${w.name}-${hash}`, namespace: ns },
              spec: { replicas: w.replicas },
              status: { replicas: w.replicas },
            },
          });
          if (rng.chance(0.6)) {
            const oldHash = k8sSuffix(rng, 10);
            const old = add({
              key: `${base}/ReplicaSet/${ns}/${w.name}/previous`,
              scraper: c.scraper,
              agent: c.agent,
              parent: wl.key,
              type: 'Kubernetes::ReplicaSet',
              config_class: 'ReplicaSet',
              name: `${w.name}-${oldHash}`,
              external_id: `replicaset/${ns}/${w.name}-${oldHash}`,
              tags: nsTags,
              labels,
              status: 'Scaled to 0',
              health: 'unknown',
              ageDays: owner.ageDays + rng.int(5, 30),
              config: {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                metadata: { name: `${w.name}-${oldHash}`, namespace: ns },
                spec: { replicas: 0 },
                status: { replicas: 0 },
              },
            });
            add({
              key: `${base}/Pod/${ns}/${w.name}/old`,
              scraper: c.scraper,
              agent: c.agent,
              parent: old.key,
              type: 'Kubernetes::Pod',
              config_class: 'Pod',
              name: `${old.name}-${k8sSuffix(rng, 5)}`,
              external_id: `pod/${ns}/old-${w.name}`,
              tags: nsTags,
              labels,
              status: 'Terminated',
              health: 'unknown',
              ready: false,
              ageDays: old.ageDays,
              deletedDaysAgo: owner.ageDays,
              node: nodes[podNo++ % nodes.length].key,
              config: {
                apiVersion: 'v1',
                kind: 'Pod',
                metadata: { name: `${old.name}`, namespace: ns },
                status: { phase: 'Succeeded' },
              },
            });
          }
        }
        for (let p = 0; p < w.replicas; p++) {
          const name = kind === 'StatefulSet' ? `${w.name}-${p}` : `${owner.name}-${k8sSuffix(rng, 5)}`;
          const t = POD_TROUBLE[`${c.name}/${w.name}/${p}`];
          const node = nodes[podNo++ % nodes.length];
          add({
            key: `${base}/Pod/${ns}/${w.name}/${p}`,
            scraper: c.scraper,
            agent: c.agent,
            parent: owner.key,
            type: 'Kubernetes::Pod',
            config_class: 'Pod',
            name,
            external_id: `pod/${ns}/${name}`,
            tags: nsTags,
            labels,
            image,
            node: node.key,
            status: t?.status ?? 'Running',
            health: t?.health ?? 'healthy',
            ready: t?.ready ?? true,
            ageDays: Math.max(0.2, owner.ageDays - rng.int(0, 3)),
            config: {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name, namespace: ns, labels: { app: w.name } },
              spec: {
                nodeName: node.name,
                containers: [
                  {
                    name: w.name,
                    image,
                    resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
                  },
                ],
              },
              status: {
                phase: t?.status === 'Pending' ? 'Pending' : 'Running',
                podIP: `${c.net}.${rng.int(32, 63)}.${rng.int(1, 254)}`,
                containerStatuses: [
                  { name: w.name, ready: t?.ready ?? true, restartCount: t ? rng.int(4, 40) : rng.int(0, 2) },
                ],
              },
            },
          });
        }
        if (c.name === 'prod-eu-1' && ['payments-api', 'checkout-web', 'cart-service'].includes(w.name)) {
          add({
            key: `${base}/HorizontalPodAutoscaler/${ns}/${w.name}`,
            scraper: c.scraper,
            agent: c.agent,
            parent: nsItem.key,
            type: 'Kubernetes::HorizontalPodAutoscaler',
            config_class: 'HorizontalPodAutoscaler',
            name: w.name,
            external_id: `hpa/${ns}/${w.name}`,
            tags: nsTags,
            labels,
            status: 'Active',
            health: 'healthy',
            ageDays: wl.ageDays,
            config: {
              apiVersion: 'autoscaling/v2',
              kind: 'HorizontalPodAutoscaler',
              metadata: { name: w.name, namespace: ns },
              spec: {
                minReplicas: w.replicas,
                maxReplicas: w.replicas * 3,
                metrics: [
                  {
                    type: 'Resource',
                    resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
                  },
                ],
              },
            },
          });
        }
        if (['checkout-web', 'payments-api', 'grafana'].includes(w.name)) {
          const host = `${w.name.replace('-web', '')}.${c.env === 'production' ? '' : 'staging.'}example.com`;
          add({
            key: `${base}/Ingress/${ns}/${w.name}`,
            scraper: c.scraper,
            agent: c.agent,
            parent: nsItem.key,
            type: 'Kubernetes::Ingress',
            config_class: 'Ingress',
            name: w.name,
            external_id: `ingress/${ns}/${w.name}`,
            tags: nsTags,
            labels,
            status: 'Active',
            health: 'healthy',
            ageDays: wl.ageDays,
            config: {
              apiVersion: w.name === 'grafana' ? 'extensions/v1beta1' : 'networking.k8s.io/v1',
              kind: 'Ingress',
              metadata: { name: w.name, namespace: ns },
              spec: {
                ingressClassName: 'nginx',
                tls: [{ hosts: [host], secretName: `${w.name}-tls` }],
                rules: [{ host }],
              },
            },
          });
        }
      }
    }
  }

  // AWS account (placeholder account id), scraped by the local agent.
  const aws = (type: string, cls: string, name: string, extra: Partial<Item> & { config: Record<string, unknown> }) =>
    add({
      key: `aws/${type}/${name}`,
      scraper: 'aws-prod-account',
      agent: LOCAL_AGENT_ID,
      type: `AWS::${type}`,
      config_class: cls,
      name,
      external_id: `arn:aws:${type.split('::')[0].toLowerCase()}:eu-west-1:123456789012:${name}`,
      tags: { account: '123456789012', region: 'eu-west-1' },
      labels: {},
      status: 'available',
      health: 'healthy',
      ageDays: rng.int(60, 700),
      ...extra,
    });
  const vpc = aws('EC2::VPC', 'VPC', 'prod-vpc', {
    labels: { Name: 'prod-vpc', env: 'production' },
    config: { VpcId: 'vpc-0a1b2c3d4e5f60718', CidrBlock: '10.0.0.0/16', State: 'available' },
  });
  aws('EC2::VPC', 'VPC', 'shared-services-vpc', {
    labels: { Name: 'shared-services-vpc' },
    config: { VpcId: 'vpc-0f1e2d3c4b5a69788', CidrBlock: '10.100.0.0/16', State: 'available' },
  });
  for (let s = 0; s < 6; s++) {
    const az = `eu-west-1${'abc'[s % 3]}`;
    aws('EC2::Subnet', 'Subnet', `prod-${s < 3 ? 'private' : 'public'}-${az}`, {
      parent: vpc.key,
      labels: { Name: `prod-${s < 3 ? 'private' : 'public'}-${az}` },
      config: {
        SubnetId: `subnet-0${rng.hex(16)}`,
        CidrBlock: `10.0.${s}.0/24`,
        AvailabilityZone: az,
        MapPublicIpOnLaunch: s >= 3,
      },
    });
  }
  const sgs = [
    'eks-cluster-sg',
    'eks-node-sg',
    'rds-orders-sg',
    'rds-ledger-sg',
    'bastion-sg',
    'alb-public-sg',
    'redis-sg',
    'build-runners-sg',
  ];
  for (const sg of sgs) {
    const open22 = sg === 'bastion-sg';
    aws('EC2::SecurityGroup', 'SecurityGroup', sg, {
      parent: vpc.key,
      labels: { Name: sg },
      config: {
        GroupId: `sg-0${rng.hex(16)}`,
        GroupName: sg,
        IpPermissions: [
          {
            IpProtocol: 'tcp',
            FromPort: open22 ? 22 : 443,
            ToPort: open22 ? 22 : 443,
            IpRanges: [{ CidrIp: open22 || sg === 'alb-public-sg' ? '0.0.0.0/0' : '10.0.0.0/16' }],
          },
        ],
      },
    });
  }
  aws('EKS::Cluster', 'KubernetesCluster', 'prod-eu-1', {
    labels: { env: 'production' },
    status: 'ACTIVE',
    config: {
      name: 'prod-eu-1',
      version: '1.29',
      platformVersion: 'eks.7',
      status: 'ACTIVE',
      endpoint: 'https://EXAMPLE0123456789.gr7.eu-west-1.eks.amazonaws.com',
    },
  });
  const prodNodes = items.filter((i) => i.type === 'Kubernetes::Node' && i.key.includes('prod-eu-1'));
  prodNodes.forEach((n, i) => {
    const itype = i < 2 ? 'm5.2xlarge' : 'm5.xlarge';
    aws('EC2::Instance', 'VirtualMachine', `eks-prod-eu-1-node-${i + 1}`, {
      parent: vpc.key,
      labels: { Name: `eks-prod-eu-1-node-${i + 1}`, 'eks:cluster-name': 'prod-eu-1', env: 'production' },
      status: 'running',
      cost: itype === 'm5.2xlarge' ? 0.428 / 60 : 0.214 / 60,
      ageDays: n.ageDays,
      config: {
        InstanceId: `i-0${rng.hex(16)}`,
        InstanceType: itype,
        State: { Name: 'running' },
        PrivateDnsName: n.name,
        ImageId: 'ami-0example1234567890',
        MetadataOptions: { HttpTokens: i === 3 ? 'optional' : 'required' },
      },
    });
  });
  const others: [string, string, string, number][] = [
    ['bastion', 't3.micro', 'running', 0.0114],
    ['jenkins', 'm5.large', 'running', 0.107],
    ['vpn-gateway', 't3.small', 'running', 0.0228],
    ['build-runner-1', 'c5.2xlarge', 'running', 0.388],
    ['build-runner-2', 'c5.2xlarge', 'stopped', 0],
  ];
  for (const [name, itype, state, hourly] of others) {
    aws('EC2::Instance', 'VirtualMachine', name, {
      parent: vpc.key,
      labels: { Name: name, env: 'production' },
      status: state,
      health: state === 'running' ? 'healthy' : 'unknown',
      cost: hourly / 60,
      config: {
        InstanceId: `i-0${rng.hex(16)}`,
        InstanceType: itype,
        State: { Name: state },
        ImageId: 'ami-0example1234567890',
        MetadataOptions: { HttpTokens: name === 'jenkins' ? 'optional' : 'required' },
      },
    });
  }
  aws('RDS::DBInstance', 'Database', 'orders-db', {
    labels: { team: 'database' },
    cost: 0.72 / 60,
    config: {
      DBInstanceIdentifier: 'orders-db',
      Engine: 'postgres',
      EngineVersion: '15.6',
      DBInstanceClass: 'db.r6g.large',
      MultiAZ: true,
      BackupRetentionPeriod: 14,
      Endpoint: { Address: 'orders-db.example.eu-west-1.rds.amazonaws.com', Port: 5432 },
    },
  });
  aws('RDS::DBInstance', 'Database', 'orders-db-replica', {
    labels: { team: 'database' },
    status: 'available',
    health: 'warning',
    cost: 0.36 / 60,
    config: {
      DBInstanceIdentifier: 'orders-db-replica',
      Engine: 'postgres',
      EngineVersion: '15.6',
      DBInstanceClass: 'db.r6g.large',
      ReadReplicaSourceDBInstanceIdentifier: 'orders-db',
      ReplicaLag: 14,
    },
  });
  aws('RDS::DBInstance', 'Database', 'ledger-db', {
    labels: { team: 'payments' },
    cost: 0.28 / 60,
    config: {
      DBInstanceIdentifier: 'ledger-db',
      Engine: 'mysql',
      EngineVersion: '8.0.36',
      DBInstanceClass: 'db.m6g.large',
      MultiAZ: false,
      BackupRetentionPeriod: 3,
    },
  });
  aws('ElastiCache::CacheCluster', 'Cache', 'payments-redis', {
    labels: { team: 'payments' },
    cost: 0.186 / 60,
    config: {
      CacheClusterId: 'payments-redis',
      Engine: 'redis',
      EngineVersion: '7.1',
      CacheNodeType: 'cache.m6g.large',
      NumCacheNodes: 1,
    },
  });
  for (const b of [
    'example-prod-artifacts',
    'example-prod-backups',
    'example-prod-logs',
    'example-static-assets',
    'example-terraform-state',
    'example-data-exports',
  ]) {
    aws('S3::Bucket', 'Bucket', b, {
      labels: { env: 'production' },
      cost: ((b.includes('backups') ? 0.0021 : 0.0004) * rng.int(5, 15)) / 10,
      config: {
        Name: b,
        Versioning: b === 'example-prod-logs' ? 'Suspended' : 'Enabled',
        PublicAccessBlock: b === 'example-data-exports' ? false : true,
        Encryption: 'aws:kms',
      },
    });
  }
  for (const r of [
    'eks-node-role',
    'eks-cluster-role',
    'payments-api-irsa',
    'ci-deploy',
    'read-only-auditor',
    'backup-operator',
    'lambda-exec',
    'watchdeck-scraper',
  ]) {
    aws('IAM::Role', 'Role', r, {
      external_id: `arn:aws:iam::123456789012:role/${r}`,
      config: {
        RoleName: r,
        Path: '/',
        AttachedPolicies:
          r === 'ci-deploy'
            ? ['arn:aws:iam::aws:policy/AdministratorAccess']
            : [`arn:aws:iam::123456789012:policy/${r}-policy`],
        MaxSessionDuration: 3600,
      },
    });
  }
  for (const f of ['invoice-renderer', 'webhook-dispatcher', 'nightly-export', 'image-thumbnailer']) {
    aws('Lambda::Function', 'Function', f, {
      cost: 0.00002 * rng.int(1, 50),
      config: { FunctionName: f, Runtime: 'nodejs20.x', MemorySize: 512, Timeout: 30, LastUpdateStatus: 'Successful' },
      health: f === 'webhook-dispatcher' ? 'warning' : 'healthy',
    });
  }
  for (const q of ['payments-events', 'payments-events-dlq', 'export-jobs']) {
    aws('SQS::Queue', 'Queue', q, {
      config: {
        QueueName: q,
        VisibilityTimeout: 30,
        ApproximateNumberOfMessages: q.endsWith('dlq') ? 37 : rng.int(0, 200),
      },
      health: q.endsWith('dlq') ? 'warning' : 'healthy',
    });
  }
  for (const z of ['example.com', 'internal.example.com']) {
    aws('Route53::HostedZone', 'DNSZone', z, {
      config: {
        Name: `${z}.`,
        ResourceRecordSetCount: rng.int(12, 80),
        Config: { PrivateZone: z.startsWith('internal') },
      },
    });
  }
  for (const lb of ['prod-public-alb', 'prod-internal-nlb']) {
    aws('ElasticLoadBalancingV2::LoadBalancer', 'LoadBalancer', lb, {
      cost: 0.0252 / 60,
      config: {
        LoadBalancerName: lb,
        Type: lb.includes('alb') ? 'application' : 'network',
        Scheme: lb.includes('public') ? 'internet-facing' : 'internal',
        State: { Code: 'active' },
      },
    });
  }
  return items;
}

/**
 * Scrapers, config items and relationships: the catalog as a person could have imported it. No
 * changes, insights, costs or scrape times: those are what a scraper observes, and no scraper has
 * run (the catalog engines will bring their own demo data through their runs). Items a scraper
 * would have deleted are left out for the same reason.
 */
export async function seedCatalog(ctx: SeedContext, targets: DemoTargets): Promise<CatalogResult> {
  const rng = ctx.rng;
  const scrapers = [
    {
      key: 'kubernetes-prod-eu-1',
      agent: agent('eu-west-prod'),
      spec: {
        kubernetes: [{ clusterName: 'prod-eu-1', exclusions: { namespaces: ['kube-node-lease'] }, maxInFlight: 64 }],
        schedule: '@every 30m',
        retention: { changes: [{ name: 'diff', age: '30d' }] },
      },
    },
    {
      key: 'kubernetes-staging-us-1',
      agent: agent('us-east-staging'),
      spec: { kubernetes: [{ clusterName: 'staging-us-1', maxInFlight: 64 }], schedule: '@every 1h' },
    },
    {
      key: 'aws-prod-account',
      agent: LOCAL_AGENT_ID,
      spec: {
        aws: [
          {
            awsConnection: { connection: 'connection://default/aws-prod' },
            regions: ['eu-west-1'],
            cloudtrail: { max_age: '7d', exclude: ['AssumeRole'] },
            include: ['EC2', 'RDS', 'S3', 'IAM', 'EKS', 'Lambda', 'SQS', 'Route53', 'ElastiCache', 'ELBv2'],
            cost_reporting: {
              s3_bucket_path: 's3://example-prod-billing/cur',
              table: 'cur',
              database: 'athenacurcfn',
              region: 'eu-west-1',
            },
          },
        ],
        schedule: '@every 1h',
      },
    },
    {
      key: 'git-manifests',
      agent: LOCAL_AGENT_ID,
      spec: {
        file: [
          {
            type: 'Git::Repository',
            url: 'https://git.example.com/platform/manifests.git',
            paths: ['clusters/**/*.yaml'],
            format: 'yaml',
            icon: 'git',
          },
        ],
        schedule: '@every 6h',
      },
    },
    // Read by the engine on this machine: manifests shipped in the repository, and the demo's
    // git repository, which gets a new commit every few minutes after the first start (gitops.ts).
    {
      key: 'demo-manifests',
      agent: LOCAL_AGENT_ID,
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
      agent: LOCAL_AGENT_ID,
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
  await insertRows(
    ctx,
    'config_scrapers',
    scrapers.map((s, i) => ({
      id: scraperId(s.key),
      agent_id: s.agent,
      name: s.key,
      namespace: 'default',
      spec: s.spec,
      schedule: s.spec.schedule,
      source: s.key === 'git-manifests' ? 'KubernetesCRD' : 'UI',
      description: null,
      labels: {},
      created_by: person(i % 2 ? 'lucas' : 'ava'),
      created_at: ago(ctx, (60 - i * 7) * DAY),
      updated_at: ago(ctx, (9 - i) * DAY),
    })),
  );

  const items = buildItems(ctx).filter((i) => !i.deletedDaysAgo);
  const byKey = new Map(items.map((i) => [i.key, i]));
  const pathOf = (i: Item): string => {
    const chain: string[] = [];
    let p = i.parent ? byKey.get(i.parent) : undefined;
    while (p) {
      chain.unshift(configId(p.key));
      p = p.parent ? byKey.get(p.parent) : undefined;
    }
    return chain.join('.');
  };
  const rows: Row[] = items.map((i) => {
    const created = i.ageDays * DAY;
    return {
      id: configId(i.key),
      scraper_id: scraperId(i.scraper),
      agent_id: i.agent,
      parent_id: i.parent ? configId(i.parent) : null,
      path: pathOf(i),
      external_id: i.external_id,
      type: i.type,
      config_class: i.config_class,
      name: i.name,
      description: i.description ?? null,
      source: i.scraper.startsWith('aws') ? 'AWS' : 'Kubernetes',
      format: 'json',
      config: i.config,
      status: i.status,
      health: i.health,
      ready: i.ready ?? true,
      labels: i.labels,
      tags: i.tags,
      created_at: ago(ctx, created),
      updated_at: ago(ctx, Math.min(created, rng.int(1, 72) * HOUR)),
    };
  });
  await insertRows(ctx, 'config_items', rows);

  const result: CatalogResult = { configs: new Map() };
  for (const i of items)
    result.configs.set(i.key, { key: i.key, id: configId(i.key), type: i.type, name: i.name, health: i.health });

  // Relationships: ownership, placement, and a few manual links.
  const rels: Row[] = [];
  const rel = (from: string, to: string, relation: string, selector = '') => {
    if (!byKey.has(from) || !byKey.has(to)) return;
    rels.push({
      config_id: configId(from),
      related_id: configId(to),
      relation,
      selector_id: selector,
      created_at: ago(ctx, byKey.get(to)!.ageDays * DAY),
    });
  };
  for (const i of items) {
    const parent = i.parent ? byKey.get(i.parent) : undefined;
    if (parent) rel(parent.key, i.key, `${parent.config_class}${i.config_class}`);
    if (i.type === 'Kubernetes::Pod' && i.node) rel(i.node, i.key, 'NodePod');
    if (i.type === 'Kubernetes::Service') {
      for (const p of items)
        if (
          p.type === 'Kubernetes::Pod' &&
          p.labels.app === i.labels.app &&
          p.tags.namespace === i.tags.namespace &&
          p.tags.cluster === i.tags.cluster
        )
          rel(i.key, p.key, 'ServicePod');
    }
  }
  const prodNodes = items.filter((i) => i.type === 'Kubernetes::Node' && i.key.startsWith('k8s/prod-eu-1'));
  prodNodes.forEach((n, k) => rel(`aws/EC2::Instance/eks-prod-eu-1-node-${k + 1}`, n.key, 'InstanceNode'));
  rel('aws/EKS::Cluster/prod-eu-1', 'k8s/prod-eu-1/Cluster', 'EKSCluster');
  rel('aws/RDS::DBInstance/orders-db', 'aws/RDS::DBInstance/orders-db-replica', 'ReadReplica');
  rel('k8s/prod-eu-1/Deployment/payments/payments-api', 'aws/RDS::DBInstance/orders-db', 'uses', 'manual');
  rel('k8s/prod-eu-1/Deployment/payments/ledger', 'aws/RDS::DBInstance/ledger-db', 'uses', 'manual');
  rel(
    'k8s/prod-eu-1/Deployment/payments/payments-api',
    'aws/ElastiCache::CacheCluster/payments-redis',
    'uses',
    'manual',
  );
  rel('k8s/prod-eu-1/Deployment/payments/payments-worker', 'aws/SQS::Queue/payments-events', 'consumes', 'manual');
  rel('aws/IAM::Role/payments-api-irsa', 'k8s/prod-eu-1/Deployment/payments/payments-api', 'assumedBy');
  await insertRows(ctx, 'config_relationships', rels, 'ON CONFLICT DO NOTHING');
  return result;
}
