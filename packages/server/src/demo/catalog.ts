import { did, insertRows, ago, DAY, HOUR, MINUTE, LOCAL_AGENT, type SeedContext, type Row, type Rng } from './util.ts';
import { person, agent, type PersonKey } from './people.ts';

/** Config item keys look like 'k8s/prod-eu-1/Deployment/payments/payments-api' or 'aws/EC2::Instance/bastion'. */
export const configId = (key: string): string => did('config', key);
export const scraperId = (key: string): string => did('scraper', key);

export interface SeededConfig {
  key: string;
  id: string;
  type: string;
  name: string;
  health: string | null;
}

export interface CatalogResult {
  configs: Map<string, SeededConfig>;
  /** change ids by config key, newest first */
  changes: Map<string, { id: string; change_type: string; created_at: string }[]>;
  /** insight ids by config key */
  analysis: Map<string, { id: string; analysis_type: string; severity: string }[]>;
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
      agent: LOCAL_AGENT,
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

type ChangeTpl = [
  changeType: string,
  severity: string,
  source: string,
  summary: (i: Item, r: Rng) => string,
  weight: number,
];

const podTpl: ChangeTpl[] = [
  [
    'Pulled',
    'info',
    'kubernetes/events',
    (i, r) => `Successfully pulled image "${i.image ?? 'image'}" in ${r.int(1, 9)}.${r.int(0, 9)}s`,
    6,
  ],
  [
    'Created',
    'info',
    'kubernetes/events',
    (i) => `Created container ${i.name.split('-').slice(0, -2).join('-') || i.name}`,
    5,
  ],
  [
    'Started',
    'info',
    'kubernetes/events',
    (i) => `Started container ${i.name.split('-').slice(0, -2).join('-') || i.name}`,
    5,
  ],
  ['Scheduled', 'info', 'kubernetes/events', (i) => `Successfully assigned ${i.tags.namespace}/${i.name} to a node`, 2],
  ['Killing', 'low', 'kubernetes/events', () => 'Stopping container: liveness probe failed', 2],
  [
    'Unhealthy',
    'medium',
    'kubernetes/events',
    (_i, r) => `Readiness probe failed: HTTP probe failed with statuscode: ${r.pick([500, 502, 503])}`,
    3,
  ],
  ['BackOff', 'high', 'kubernetes/events', () => 'Back-off restarting failed container', 2],
  ['OOMKilled', 'high', 'kubernetes/events', () => 'Container was OOMKilled (memory limit 512Mi)', 1],
  ['diff', 'info', 'diff', (_i, r) => `status.containerStatuses[0].restartCount: ${r.int(0, 5)} → ${r.int(6, 9)}`, 2],
];
const deploymentTpl: ChangeTpl[] = [
  [
    'diff',
    'info',
    'diff',
    (i, r) => `spec.template.spec.containers[0].image: ${version(r)} → ${i.image?.split(':')[1] ?? version(r)}`,
    8,
  ],
  [
    'ScalingReplicaSet',
    'info',
    'kubernetes/events',
    (i, r) => `Scaled up replica set ${i.name}-${k8sSuffix(r, 10)} to ${r.int(2, 6)}`,
    6,
  ],
  [
    'ScalingReplicaSet',
    'info',
    'kubernetes/events',
    (i, r) => `Scaled down replica set ${i.name}-${k8sSuffix(r, 10)} to ${r.int(0, 2)}`,
    5,
  ],
  ['Reconciled', 'info', 'flux', (_i, r) => `Applied revision: main@sha1:${r.hex(40)}`, 6],
  [
    'ProgressDeadlineExceeded',
    'high',
    'kubernetes/events',
    (i, r) => `ReplicaSet "${i.name}-${k8sSuffix(r, 10)}" has timed out progressing`,
    1,
  ],
  ['UserUpdate', 'medium', 'kubernetes/audit', (i) => `kubectl edit deployment/${i.name}`, 1],
];
const TEMPLATES: Record<string, { tpl: ChangeTpl[]; min: number; max: number }> = {
  'Kubernetes::Pod': { tpl: podTpl, min: 12, max: 30 },
  'Kubernetes::Deployment': { tpl: deploymentTpl, min: 30, max: 60 },
  'Kubernetes::StatefulSet': { tpl: deploymentTpl, min: 10, max: 25 },
  'Kubernetes::ReplicaSet': {
    tpl: [
      ['SuccessfulCreate', 'info', 'kubernetes/events', (i, r) => `Created pod: ${i.name}-${k8sSuffix(r, 5)}`, 3],
      ['SuccessfulDelete', 'info', 'kubernetes/events', (i, r) => `Deleted pod: ${i.name}-${k8sSuffix(r, 5)}`, 2],
    ],
    min: 3,
    max: 8,
  },
  'Kubernetes::Node': {
    tpl: [
      ['NodeReady', 'info', 'kubernetes/events', () => 'Node status is now: NodeReady', 3],
      ['NodeNotReady', 'high', 'kubernetes/events', () => 'Node status is now: NodeNotReady', 1],
      [
        'NodeHasInsufficientMemory',
        'medium',
        'kubernetes/events',
        () => 'Node status is now: NodeHasInsufficientMemory',
        1,
      ],
      [
        'diff',
        'info',
        'diff',
        (_i, r) => `status.allocatable.memory: ${r.int(14, 15)}Gi → ${r.int(14, 15)}.${r.int(1, 9)}Gi`,
        2,
      ],
      ['RegisteredNode', 'info', 'kubernetes/events', (i) => `Node ${i.name} event: Registered Node in Controller`, 1],
    ],
    min: 8,
    max: 20,
  },
  'Kubernetes::Namespace': {
    tpl: [['diff', 'info', 'diff', () => 'metadata.labels: added pod-security.kubernetes.io/enforce', 1]],
    min: 1,
    max: 4,
  },
  'Kubernetes::Service': {
    tpl: [['diff', 'info', 'diff', () => 'spec.ports[0].targetPort: 8080 → http', 1]],
    min: 1,
    max: 4,
  },
  'Kubernetes::ConfigMap': {
    tpl: [
      [
        'diff',
        'low',
        'diff',
        (_i, r) => `data.LOG_LEVEL: ${r.pick(['info', 'debug'])} → ${r.pick(['warn', 'info'])}`,
        3,
      ],
      ['diff', 'low', 'diff', () => 'data.UPSTREAM_TIMEOUT: 5s → 10s', 1],
    ],
    min: 3,
    max: 12,
  },
  'Kubernetes::Ingress': {
    tpl: [
      ['diff', 'medium', 'diff', () => 'spec.tls[0].secretName changed', 1],
      ['Sync', 'info', 'kubernetes/events', () => 'Scheduled for sync', 2],
    ],
    min: 2,
    max: 6,
  },
  'Kubernetes::HorizontalPodAutoscaler': {
    tpl: [
      [
        'SuccessfulRescale',
        'info',
        'kubernetes/events',
        (_i, r) => `New size: ${r.int(3, 9)}; reason: cpu resource utilization (percentage of request) above target`,
        1,
      ],
    ],
    min: 10,
    max: 30,
  },
  'Kubernetes::Cluster': {
    tpl: [
      ['diff', 'medium', 'diff', () => 'version: v1.28.9-eks-036c24b → v1.29.4-eks-036c24b', 1],
      ['Reconciled', 'info', 'flux', (_i, r) => `Applied revision: main@sha1:${r.hex(40)}`, 3],
    ],
    min: 5,
    max: 10,
  },
  'AWS::EC2::Instance': {
    tpl: [
      ['StartInstances', 'info', 'AWS::CloudTrail', () => 'StartInstances', 2],
      ['StopInstances', 'medium', 'AWS::CloudTrail', () => 'StopInstances', 2],
      ['RebootInstances', 'medium', 'AWS::CloudTrail', () => 'RebootInstances', 1],
      ['ModifyInstanceAttribute', 'medium', 'AWS::CloudTrail', () => 'ModifyInstanceAttribute: instanceType', 1],
      ['CreateTags', 'info', 'AWS::CloudTrail', () => 'CreateTags: CostCenter', 2],
      ['diff', 'info', 'diff', () => 'State.Name: stopped → running', 2],
    ],
    min: 6,
    max: 18,
  },
  'AWS::RDS::DBInstance': {
    tpl: [
      ['ModifyDBInstance', 'medium', 'AWS::CloudTrail', () => 'ModifyDBInstance: BackupRetentionPeriod', 2],
      ['RebootDBInstance', 'high', 'AWS::CloudTrail', () => 'RebootDBInstance', 1],
      ['CreateDBSnapshot', 'info', 'AWS::CloudTrail', () => 'CreateDBSnapshot: automated', 4],
    ],
    min: 5,
    max: 12,
  },
  'AWS::S3::Bucket': {
    tpl: [
      ['PutBucketPolicy', 'high', 'AWS::CloudTrail', () => 'PutBucketPolicy', 1],
      ['PutBucketEncryption', 'medium', 'AWS::CloudTrail', () => 'PutBucketEncryption: aws:kms', 1],
      ['PutBucketTagging', 'info', 'AWS::CloudTrail', () => 'PutBucketTagging', 2],
    ],
    min: 2,
    max: 6,
  },
  'AWS::IAM::Role': {
    tpl: [
      ['AttachRolePolicy', 'high', 'AWS::CloudTrail', () => 'AttachRolePolicy', 1],
      ['UpdateAssumeRolePolicy', 'critical', 'AWS::CloudTrail', () => 'UpdateAssumeRolePolicy', 1],
      ['TagRole', 'info', 'AWS::CloudTrail', () => 'TagRole', 2],
    ],
    min: 1,
    max: 5,
  },
  'AWS::EC2::SecurityGroup': {
    tpl: [
      [
        'AuthorizeSecurityGroupIngress',
        'high',
        'AWS::CloudTrail',
        (_i, r) => `AuthorizeSecurityGroupIngress: tcp/${r.pick([22, 443, 5432, 6379])}`,
        2,
      ],
      ['RevokeSecurityGroupIngress', 'medium', 'AWS::CloudTrail', () => 'RevokeSecurityGroupIngress', 1],
    ],
    min: 2,
    max: 8,
  },
};
const DEFAULT_TPL = {
  tpl: [
    ['diff', 'info', 'diff', () => 'configuration updated', 3],
    ['CreateTags', 'info', 'AWS::CloudTrail', () => 'CreateTags', 1],
  ] as ChangeTpl[],
  min: 1,
  max: 5,
};

const CHANGE_PEOPLE: PersonKey[] = ['liam', 'lucas', 'noah', 'mia', 'ava'];
const EXTERNAL_ACTORS = [
  'system:serviceaccount:flux-system:kustomize-controller',
  'system:serviceaccount:kube-system:deployment-controller',
  'arn:aws:iam::123456789012:user/deploy-bot',
  'arn:aws:sts::123456789012:assumed-role/ci-deploy/github-actions',
  'kubelet',
];

function diffText(item: Item, summary: string): string | null {
  const m = /^(.*): (.*) → (.*)$/.exec(summary);
  if (!m) return null;
  const [, path, from, to] = m;
  const leaf = path.split('.').pop() ?? path;
  return [
    `--- a/${item.name}`,
    `+++ b/${item.name}`,
    `@@ -${12 + (item.name.length % 9)},3 +${12 + (item.name.length % 9)},3 @@`,
    `   # ${path}`,
    `-  ${leaf}: ${from}`,
    `+  ${leaf}: ${to}`,
  ].join('\n');
}

interface Insight {
  analyzer: string;
  analysis_type: string;
  severity: string;
  summary: string;
  message: string;
}

const CVES: Insight[] = [
  {
    analyzer: 'trivy',
    analysis_type: 'security',
    severity: 'high',
    summary: 'CVE-2023-44487 in golang.org/x/net',
    message: 'CVE-2023-44487: HTTP/2 rapid reset can cause excessive work (installed v0.14.0, fixed in v0.17.0)',
  },
  {
    analyzer: 'trivy',
    analysis_type: 'security',
    severity: 'critical',
    summary: 'CVE-2024-3094 in xz-utils',
    message:
      'CVE-2024-3094: malicious code in xz upstream tarballs 5.6.0 and 5.6.1 (installed 5.6.0, fixed in 5.6.1+really5.4.5)',
  },
  {
    analyzer: 'trivy',
    analysis_type: 'security',
    severity: 'high',
    summary: 'CVE-2023-4863 in libwebp',
    message: 'CVE-2023-4863: heap buffer overflow in libwebp (installed 1.2.4, fixed in 1.3.2)',
  },
  {
    analyzer: 'trivy',
    analysis_type: 'security',
    severity: 'medium',
    summary: 'CVE-2023-38545 in curl',
    message: 'CVE-2023-38545: SOCKS5 heap buffer overflow in curl (installed 7.88.1, fixed in 8.4.0)',
  },
  {
    analyzer: 'trivy',
    analysis_type: 'security',
    severity: 'low',
    summary: 'CVE-2023-5678 in openssl',
    message:
      'CVE-2023-5678: excessive time spent in DH check / generation with large Q parameter values (installed 3.0.11, fixed in 3.0.13)',
  },
];

function insightsFor(item: Item, r: Rng): (Insight & { status: string })[] {
  const out: Insight[] = [];
  const t = item.type;
  if ((t === 'Kubernetes::Deployment' || t === 'Kubernetes::StatefulSet') && r.chance(0.55)) {
    const n = r.int(1, 3);
    for (let k = 0; k < n; k++) out.push(CVES[(item.name.length + k * 2) % CVES.length]);
  }
  if (t === 'Kubernetes::Deployment') {
    const spec = (item.config.spec ?? {}) as { replicas?: number };
    if (spec.replicas === 1)
      out.push({
        analyzer: 'kubernetes-best-practices',
        analysis_type: 'availability',
        severity: 'medium',
        summary: 'Deployment has a single replica',
        message: `${item.name} runs 1 replica: a node drain or crash takes it down. Set replicas >= 2 and add a PodDisruptionBudget.`,
      });
    if (r.chance(0.3))
      out.push({
        analyzer: 'kubernetes-best-practices',
        analysis_type: 'reliability',
        severity: 'low',
        summary: 'Container has no CPU limit',
        message: 'Container has no CPU limit; a runaway process can starve neighbours on the node.',
      });
    if (r.chance(0.15))
      out.push({
        analyzer: 'kubernetes-best-practices',
        analysis_type: 'technical_debt',
        severity: 'low',
        summary: 'Image uses a mutable tag',
        message: 'The image is referenced by tag; pin a digest so rollbacks are reproducible.',
      });
  }
  if (t === 'Kubernetes::Pod' && item.health === 'unhealthy')
    out.push({
      analyzer: 'kubernetes-best-practices',
      analysis_type: 'performance',
      severity: 'high',
      summary: 'CPU throttling above 25%',
      message: 'Container was CPU-throttled for 31% of periods over the last hour.',
    });
  if (t === 'Kubernetes::Ingress' && (item.config.apiVersion as string).startsWith('extensions/'))
    out.push({
      analyzer: 'kubernetes-best-practices',
      analysis_type: 'technical_debt',
      severity: 'medium',
      summary: 'Deprecated API version extensions/v1beta1',
      message: 'Ingress extensions/v1beta1 was removed in Kubernetes 1.22; migrate to networking.k8s.io/v1.',
    });
  if (t === 'Kubernetes::Node' && r.chance(0.7))
    out.push({
      analyzer: 'kube-bench',
      analysis_type: 'compliance',
      severity: 'medium',
      summary: 'CIS 4.2.6 protect-kernel-defaults',
      message: '4.2.6 Ensure that the --protect-kernel-defaults argument is set to true (FAIL)',
    });
  if (t === 'Kubernetes::ConfigMap' && item.name.startsWith('metrics-server'))
    out.push({
      analyzer: 'kubernetes-best-practices',
      analysis_type: 'other',
      severity: 'info',
      summary: 'ConfigMap not referenced by any workload',
      message: 'No pod in the namespace mounts or references this ConfigMap.',
    });
  if (t === 'AWS::EC2::Instance') {
    const cfg = item.config as { MetadataOptions?: { HttpTokens?: string }; InstanceType?: string };
    if (cfg.MetadataOptions?.HttpTokens === 'optional')
      out.push({
        analyzer: 'aws-config-rules',
        analysis_type: 'security',
        severity: 'medium',
        summary: 'IMDSv1 enabled',
        message: 'ec2-imdsv2-check: instance metadata service allows IMDSv1; require session tokens.',
      });
    if (item.name.startsWith('build-runner'))
      out.push({
        analyzer: 'aws-trusted-advisor',
        analysis_type: 'cost',
        severity: 'medium',
        summary: 'Low Utilization Amazon EC2 Instances',
        message: 'Average CPU utilization was 4% over the last 14 days; estimated monthly savings $212.',
      });
    if (cfg.InstanceType === 'm5.2xlarge')
      out.push({
        analyzer: 'aws-cost-optimizer',
        analysis_type: 'recommendation',
        severity: 'low',
        summary: 'Rightsize m5.2xlarge to m5.xlarge',
        message: 'Peak memory 41% and CPU 28% over 30 days; m5.xlarge would save about $154/month.',
      });
  }
  if (t === 'AWS::S3::Bucket') {
    const cfg = item.config as { PublicAccessBlock?: boolean; Versioning?: string };
    if (cfg.PublicAccessBlock === false)
      out.push({
        analyzer: 'aws-trusted-advisor',
        analysis_type: 'security',
        severity: 'critical',
        summary: 'S3 bucket allows public read access',
        message: 'Bucket policy grants s3:GetObject to Principal "*" and Block Public Access is off.',
      });
    if (cfg.Versioning === 'Suspended')
      out.push({
        analyzer: 'aws-config-rules',
        analysis_type: 'reliability',
        severity: 'low',
        summary: 'Bucket versioning suspended',
        message: 's3-bucket-versioning-enabled: versioning is suspended.',
      });
  }
  if (t === 'AWS::EC2::SecurityGroup' && item.name === 'bastion-sg')
    out.push({
      analyzer: 'aws-trusted-advisor',
      analysis_type: 'security',
      severity: 'high',
      summary: 'Security group allows 0.0.0.0/0 on port 22',
      message: 'Security Groups - Specific Ports Unrestricted: tcp/22 is open to the internet.',
    });
  if (t === 'AWS::RDS::DBInstance') {
    if (item.name === 'ledger-db')
      out.push({
        analyzer: 'aws-trusted-advisor',
        analysis_type: 'availability',
        severity: 'high',
        summary: 'RDS instance is not Multi-AZ',
        message: 'Amazon RDS Multi-AZ: ledger-db runs in a single availability zone.',
      });
    if (item.name === 'ledger-db')
      out.push({
        analyzer: 'aws-config-rules',
        analysis_type: 'reliability',
        severity: 'medium',
        summary: 'Backup retention under 7 days',
        message: 'db-instance-backup-enabled: retention is 3 days; policy requires 7.',
      });
    if (item.name === 'orders-db-replica')
      out.push({
        analyzer: 'aws-trusted-advisor',
        analysis_type: 'cost',
        severity: 'low',
        summary: 'Amazon RDS Idle DB Instances',
        message: 'The replica served fewer than 10 connections per day over the last week.',
      });
  }
  if (t === 'AWS::IAM::Role') {
    if (item.name === 'ci-deploy')
      out.push({
        analyzer: 'aws-config-rules',
        analysis_type: 'security',
        severity: 'high',
        summary: 'Role has AdministratorAccess attached',
        message: 'iam-policy-no-statements-with-admin-access: ci-deploy has AdministratorAccess.',
      });
    if (item.name === 'backup-operator')
      out.push({
        analyzer: 'aws-config-rules',
        analysis_type: 'compliance',
        severity: 'low',
        summary: 'Role unused for 90 days',
        message: 'iam-role-unused: backup-operator has not been assumed for 97 days.',
      });
  }
  if (t === 'AWS::Lambda::Function' && item.name === 'webhook-dispatcher')
    out.push({
      analyzer: 'aws-trusted-advisor',
      analysis_type: 'integration',
      severity: 'medium',
      summary: 'Webhook endpoint returns 4xx',
      message: '12% of invocations in the last 24h received HTTP 410 from the partner endpoint.',
    });
  return out.map((x, i) => ({
    ...x,
    status: r.weighted([
      ['open', 8],
      ['resolved', 2 + (i % 2)],
      ['silenced', 1],
    ] as const),
  }));
}

/** Scrapers, config items, changes, insights and relationships. */
export async function seedCatalog(ctx: SeedContext): Promise<CatalogResult> {
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
      agent: LOCAL_AGENT,
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
      agent: LOCAL_AGENT,
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
      source: i === 3 ? 'KubernetesCRD' : 'UI',
      description: null,
      labels: {},
      created_by: person(i % 2 ? 'lucas' : 'ava'),
      created_at: ago(ctx, (60 - i * 7) * DAY),
      updated_at: ago(ctx, (9 - i) * DAY),
    })),
  );

  const items = buildItems(ctx);
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
    const scraped = i.deletedDaysAgo ? i.deletedDaysAgo * DAY : rng.int(2, 50) * MINUTE;
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
      cost_per_minute: i.cost ? Number(i.cost.toFixed(6)) : null,
      cost_total_1d: i.cost ? Number((i.cost * 1440 * (0.9 + rng.next() * 0.4)).toFixed(4)) : null,
      cost_total_7d: i.cost ? Number((i.cost * 1440 * 7 * (0.95 + rng.next() * 0.1)).toFixed(4)) : null,
      cost_total_30d: i.cost ? Number((i.cost * 1440 * 30).toFixed(4)) : null,
      last_scraped_time: ago(ctx, scraped),
      created_at: ago(ctx, created),
      updated_at: ago(ctx, Math.min(created, rng.int(1, 72) * HOUR)),
      deleted_at: i.deletedDaysAgo ? ago(ctx, i.deletedDaysAgo * DAY) : null,
      delete_reason: i.deletedDaysAgo ? 'Deleted by scraper (no longer present)' : null,
    };
  });
  await insertRows(ctx, 'config_items', rows);

  // Changes: a few thousand over 30 days, denser towards now.
  const result: CatalogResult = { configs: new Map(), changes: new Map(), analysis: new Map() };
  for (const i of items)
    result.configs.set(i.key, { key: i.key, id: configId(i.key), type: i.type, name: i.name, health: i.health });
  const changes: Row[] = [];
  for (const i of items) {
    const t = TEMPLATES[i.type] ?? DEFAULT_TPL;
    const n = rng.int(t.min, t.max);
    const lifetimeMs = Math.min(30 * DAY, i.ageDays * DAY);
    const endMs = i.deletedDaysAgo ? i.deletedDaysAgo * DAY : 0;
    if (lifetimeMs <= endMs) continue;
    const list: { id: string; change_type: string; created_at: string }[] = [];
    for (let k = 0; k < n; k++) {
      const [change_type, severity, source, summaryFn] = rng.weighted(t.tpl.map((x) => [x, x[4]] as const));
      const summary = summaryFn(i, rng);
      const atMs = endMs + (lifetimeMs - endMs) * Math.pow(rng.next(), 1.6);
      const repeated = rng.chance(0.15) && source === 'kubernetes/events';
      const byPerson = source === 'kubernetes/audit' || (change_type === 'diff' && rng.chance(0.12));
      const id = did('change', `${i.key}:${k}`);
      const created_at = ago(ctx, atMs);
      list.push({ id, change_type, created_at });
      changes.push({
        id,
        config_id: configId(i.key),
        change_type,
        severity,
        source,
        summary,
        details:
          source === 'AWS::CloudTrail'
            ? {
                eventName: change_type,
                awsRegion: 'eu-west-1',
                sourceIPAddress: `10.0.${rng.int(0, 5)}.${rng.int(2, 250)}`,
                userIdentity: { arn: rng.pick(EXTERNAL_ACTORS.slice(2, 4)) },
              }
            : source === 'kubernetes/events'
              ? { reason: change_type, type: severity === 'info' ? 'Normal' : 'Warning', reportingComponent: 'kubelet' }
              : null,
        diff: change_type === 'diff' ? diffText(i, summary) : null,
        patches:
          change_type === 'diff' ? { op: 'replace', path: `/${summary.split(':')[0].replace(/\./g, '/')}` } : null,
        count: repeated ? rng.int(2, 40) : 1,
        first_observed: repeated ? ago(ctx, atMs + rng.int(1, 48) * HOUR) : created_at,
        created_by: byPerson ? person(rng.pick(CHANGE_PEOPLE)) : null,
        external_created_by: byPerson
          ? null
          : source === 'flux'
            ? EXTERNAL_ACTORS[0]
            : source === 'AWS::CloudTrail'
              ? rng.pick(EXTERNAL_ACTORS.slice(2, 4))
              : rng.pick([EXTERNAL_ACTORS[1], EXTERNAL_ACTORS[4]]),
        created_at,
      });
    }
    list.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
    result.changes.set(i.key, list);
  }
  await insertRows(ctx, 'config_changes', changes);

  // Insights.
  const analysis: Row[] = [];
  for (const i of items) {
    if (i.deletedDaysAgo) continue;
    const list = insightsFor(i, rng).map((x, k) => {
      const first = rng.int(1, 28) * DAY;
      return {
        id: did('analysis', `${i.key}:${k}`),
        config_id: configId(i.key),
        scraper_id: scraperId(i.scraper),
        analyzer: x.analyzer,
        analysis_type: x.analysis_type,
        severity: x.severity,
        status: x.status,
        summary: x.summary,
        message: x.message,
        source: x.analyzer.startsWith('aws') ? 'AWS' : x.analyzer,
        analysis: { rule: x.summary, resource: i.name },
        first_observed: ago(ctx, first),
        last_observed: ago(ctx, x.status === 'open' ? rng.int(5, 120) * MINUTE : first / 2),
        created_at: ago(ctx, first),
        updated_at: ago(ctx, rng.int(1, 48) * HOUR),
      };
    });
    if (list.length)
      result.analysis.set(
        i.key,
        list.map((a) => ({ id: a.id, analysis_type: a.analysis_type, severity: a.severity })),
      );
    analysis.push(...list);
  }
  await insertRows(ctx, 'config_analysis', analysis);

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
      deleted_at: byKey.get(to)!.deletedDaysAgo ? ago(ctx, byKey.get(to)!.deletedDaysAgo! * DAY) : null,
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
          !p.deletedDaysAgo &&
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
