/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import type { AddressInfo } from 'node:net';
import { kubernetesKind, eventSeverity } from '#server/catalog/scrape/kinds/kubernetes.ts';
import { deriveHealth } from '#server/catalog/scrape/kinds/kubernetes-health.ts';
import type { ScrapeContext } from '#server/catalog/scrape/types.ts';

/**
 * No cluster runs on these machines: the kind is tested against a local HTTP server that answers
 * the Kubernetes API's list calls (GET /api/v1/pods, /apis/apps/v1/deployments, ...) with list
 * responses in the documented shapes (kind: PodList, metadata.continue, items), pages included.
 */
const ts = '2026-11-20T10:00:00Z';
const meta = (name: string, uid: string, extra: Record<string, unknown> = {}) => ({
  name,
  uid,
  creationTimestamp: ts,
  resourceVersion: '1',
  managedFields: [{ manager: 'kubectl' }],
  ...extra,
});
const cond = (type: string, status: string, reason?: string) => ({ type, status, ...(reason ? { reason } : {}) });

const OBJECTS: Record<string, any[]> = {
  namespaces: [
    { metadata: meta('shop', 'ns-shop'), status: { phase: 'Active' } },
    { metadata: meta('kube-system', 'ns-kube'), status: { phase: 'Active' } },
  ],
  nodes: [
    {
      metadata: meta('node-1', 'node-1'),
      status: { conditions: [cond('Ready', 'True'), cond('MemoryPressure', 'False')] },
    },
    { metadata: meta('node-2', 'node-2'), status: { conditions: [cond('Ready', 'False')] } },
  ],
  deployments: [
    {
      metadata: meta('web', 'dep-web', { namespace: 'shop', labels: { app: 'web' } }),
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'shop/web:1.2' }] } } },
      status: { readyReplicas: 2, conditions: [cond('Available', 'True')] },
    },
  ],
  statefulsets: [
    { metadata: meta('db', 'sts-db', { namespace: 'shop' }), spec: { replicas: 3 }, status: { readyReplicas: 1 } },
  ],
  daemonsets: [
    {
      metadata: meta('agent', 'ds-agent', { namespace: 'shop' }),
      status: { desiredNumberScheduled: 2, numberReady: 2 },
    },
  ],
  replicasets: [
    {
      metadata: meta('web-abc', 'rs-web', {
        namespace: 'shop',
        labels: { app: 'web' },
        ownerReferences: [{ kind: 'Deployment', name: 'web', uid: 'dep-web', controller: true }],
      }),
      spec: { replicas: 2 },
      status: { readyReplicas: 2 },
    },
  ],
  cronjobs: [{ metadata: meta('report', 'cj-report', { namespace: 'shop' }), spec: { suspend: true } }],
  jobs: [
    {
      metadata: meta('migrate', 'job-migrate', { namespace: 'shop' }),
      status: { conditions: [cond('Failed', 'True', 'BackoffLimitExceeded')] },
    },
  ],
  pods: [
    {
      metadata: meta('web-abc-1', 'pod-1', {
        namespace: 'shop',
        labels: { app: 'web' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-web', controller: true }],
      }),
      spec: {
        nodeName: 'node-1',
        containers: [{ name: 'web', image: 'shop/web:1.2', envFrom: [{ configMapRef: { name: 'web-config' } }] }],
      },
      status: { phase: 'Running', conditions: [cond('Ready', 'True')] },
    },
    {
      metadata: meta('web-abc-2', 'pod-2', {
        namespace: 'shop',
        labels: { app: 'web' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-web', controller: true }],
      }),
      spec: { nodeName: 'node-2', containers: [{ name: 'web', image: 'shop/web:1.2' }] },
      status: {
        phase: 'Running',
        conditions: [cond('Ready', 'False')],
        containerStatuses: [{ name: 'web', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
    },
    {
      metadata: meta('coredns-1', 'pod-dns', { namespace: 'kube-system' }),
      spec: { containers: [{ name: 'dns', image: 'coredns:1' }] },
      status: { phase: 'Running', conditions: [cond('Ready', 'True')] },
    },
  ],
  services: [
    {
      metadata: meta('web', 'svc-web', { namespace: 'shop' }),
      spec: { type: 'ClusterIP', selector: { app: 'web' } },
    },
  ],
  ingresses: [
    {
      metadata: meta('web', 'ing-web', { namespace: 'shop' }),
      spec: { rules: [{ http: { paths: [{ backend: { service: { name: 'web' } } }] } }] },
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } },
    },
  ],
  configmaps: [{ metadata: meta('web-config', 'cm-web', { namespace: 'shop' }), data: { MODE: 'prod' } }],
  events: [
    {
      metadata: meta('web-abc-2.1', 'ev-1', { namespace: 'shop' }),
      involvedObject: { kind: 'Pod', name: 'web-abc-2', namespace: 'shop', uid: 'pod-2' },
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off restarting failed container web',
      source: { component: 'kubelet', host: 'node-2' },
      lastTimestamp: '2026-11-25T09:00:00Z',
    },
    {
      metadata: meta('web-abc-1.1', 'ev-2', { namespace: 'shop' }),
      involvedObject: { kind: 'Pod', name: 'web-abc-1', namespace: 'shop', uid: 'pod-1' },
      type: 'Normal',
      reason: 'Pulled',
      message: 'Successfully pulled image',
      source: { component: 'kubelet' },
      lastTimestamp: '2026-11-25T08:00:00Z',
    },
  ],
};

const LIST_KIND: Record<string, string> = {
  namespaces: 'NamespaceList',
  nodes: 'NodeList',
  deployments: 'DeploymentList',
  statefulsets: 'StatefulSetList',
  daemonsets: 'DaemonSetList',
  replicasets: 'ReplicaSetList',
  cronjobs: 'CronJobList',
  jobs: 'JobList',
  pods: 'PodList',
  services: 'ServiceList',
  ingresses: 'IngressList',
  configmaps: 'ConfigMapList',
  events: 'EventList',
};

interface StandIn {
  url: string;
  /** the server's self-signed certificate, the kubeconfig's certificate-authority-data */
  ca: string;
  requests: URL[];
  forbid: Set<string>;
  close(): Promise<void>;
}

/** The API server stand-in: list endpoints (cluster-wide and per namespace), `limit`/`continue` paging, a bearer token. */
async function startApiServer(token: string): Promise<StandIn> {
  const requests: URL[] = [];
  const forbid = new Set<string>();
  // TLS as a real API server speaks it (the client refuses plain HTTP unless TLS checks are off)
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: new Date(Date.now() + 86_400_000),
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(url);
    const send = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`)
      return send(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', code: 401 });
    const m = /^\/(?:api\/v1|apis\/[^/]+\/v1)(?:\/namespaces\/([^/]+))?\/([a-z]+)$/.exec(url.pathname);
    const resource = m?.[2] ?? (url.pathname === '/api/v1/namespaces' ? 'namespaces' : '');
    const namespace = m?.[2] === undefined ? undefined : m?.[1];
    if (!resource || !OBJECTS[resource])
      return send(404, {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        message: `no ${url.pathname}`,
        code: 404,
      });
    if (forbid.has(resource))
      return send(403, {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Forbidden',
        message: `${resource} is forbidden: User "scraper" cannot list resource "${resource}"`,
        code: 403,
      });
    let items = OBJECTS[resource].filter((o) => !namespace || o.metadata.namespace === namespace);
    const fs = url.searchParams.get('fieldSelector');
    const nameIs = fs && /^metadata\.name=(.+)$/.exec(fs);
    if (nameIs) items = items.filter((o) => o.metadata.name === nameIs[1]);
    const ls = url.searchParams.get('labelSelector');
    const lsm = ls && /^(\w+)=(\w+)$/.exec(ls);
    if (lsm) items = items.filter((o) => o.metadata.labels?.[lsm[1]] === lsm[2]);
    const limit = Number(url.searchParams.get('limit') ?? 0) || items.length;
    const start = Number(url.searchParams.get('continue') ?? 0);
    // pods come one page at a time, the way the API server pages long lists
    const size = resource === 'pods' ? Math.min(1, limit) : limit;
    const page = items.slice(start, start + size);
    const more = start + size < items.length;
    send(200, {
      kind: LIST_KIND[resource],
      apiVersion: 'v1',
      metadata: { resourceVersion: '100', ...(more ? { continue: String(start + size) } : {}) },
      items: page,
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: pems.cert,
    requests,
    forbid,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const kubeconfig = (api: StandIn, token: string) => `apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: ${api.url}
    certificate-authority-data: ${Buffer.from(api.ca).toString('base64')}
users:
- name: scraper
  user:
    token: ${token}
contexts:
- name: test
  context: {cluster: test, user: scraper}
current-context: test
`;

const ctx = (connections: Record<string, Record<string, unknown>> = {}): ScrapeContext => ({
  scraperId: '00000000-0000-4000-8000-000000000001',
  dataDir: '/tmp',
  fileRoots: [],
  signal: new AbortController().signal,
  db: undefined as never, // the kind only reads its source
  connection: async (ref) => {
    if (!connections[ref]) throw new Error(`connection ${ref} not found`);
    return connections[ref];
  },
  log: { info() {}, warn() {} },
});

describe('kubernetes scraper kind (against a stand-in API server)', () => {
  let api: StandIn;
  beforeAll(async () => {
    api = await startApiServer('s3cret-token');
  });
  afterAll(async () => api?.close());

  it('reads every built-in type with health, parents, links and events', async () => {
    api.requests.length = 0;
    const r = await kubernetesKind(
      { clusterName: 'prod', kubeconfig: kubeconfig(api, 's3cret-token'), exclusions: { namespace: ['kube-*'] } },
      ctx(),
    );
    expect(r.errors).toEqual([]);
    const by = (type: string, name: string) =>
      r.items.find((i) => i.type === `Kubernetes::${type}` && i.name === name)!;
    expect(r.items.map((i) => i.type).sort()).toEqual(
      [
        'Cluster',
        'ConfigMap',
        'CronJob',
        'DaemonSet',
        'Deployment',
        'Ingress',
        'Job',
        'Namespace',
        'Namespace',
        'Node',
        'Node',
        'Pod',
        'Pod',
        'ReplicaSet',
        'Service',
        'StatefulSet',
      ].map((t) => `Kubernetes::${t}`),
    );
    // the kube-system pod is excluded by namespace; its Namespace object is cluster-scoped and kept
    expect(r.items.some((i) => i.name === 'coredns-1')).toBe(false);

    const health = Object.fromEntries(
      r.items.map((i) => [`${i.configClass}/${i.name}`, [i.health, i.status, i.ready]]),
    );
    expect(health).toMatchObject({
      'Namespace/shop': ['healthy', 'Active', true],
      'Node/node-1': ['healthy', 'Ready', true],
      'Node/node-2': ['unhealthy', 'NotReady', false],
      'Deployment/web': ['healthy', 'Running', true],
      'StatefulSet/db': ['warning', '1/3 ready', false],
      'DaemonSet/agent': ['healthy', 'Running', true],
      'ReplicaSet/web-abc': ['healthy', 'Running', true],
      'CronJob/report': ['unknown', 'Suspended', false],
      'Job/migrate': ['unhealthy', 'BackoffLimitExceeded', false],
      'Pod/web-abc-1': ['healthy', 'Running', true],
      'Pod/web-abc-2': ['unhealthy', 'CrashLoopBackOff', false],
      'Service/web': ['healthy', 'ClusterIP', true],
      'Ingress/web': ['healthy', 'Ready', true],
      'ConfigMap/web-config': ['healthy', 'Active', true],
      'Cluster/prod': ['healthy', 'Reachable', true],
    });

    const pod = by('Pod', 'web-abc-1');
    expect(pod).toMatchObject({
      externalId: 'pod-1',
      namespace: 'shop',
      labels: { app: 'web' },
      tags: { cluster: 'prod', namespace: 'shop' },
      parents: [{ type: 'Kubernetes::ReplicaSet', externalId: 'rs-web' }],
    });
    // the body as kubectl shows it: apiVersion and kind, RFC 3339 times, no managedFields
    expect((pod.config as any).apiVersion).toBe('v1');
    expect((pod.config as any).kind).toBe('Pod');
    expect((pod.config as any).metadata.creationTimestamp).toBe(ts);
    expect((pod.config as any).metadata.managedFields).toBeUndefined();
    expect(by('ReplicaSet', 'web-abc').parents).toEqual([{ type: 'Kubernetes::Deployment', externalId: 'dep-web' }]);
    expect(by('Deployment', 'web').parents).toEqual([{ type: 'Kubernetes::Namespace', externalId: 'ns-shop' }]);
    expect((by('Deployment', 'web').config as any).apiVersion).toBe('apps/v1');
    expect(by('Namespace', 'shop').parents).toEqual([{ type: 'Kubernetes::Cluster', externalId: 'cluster/prod' }]);

    const links = r.relationships.map((l) => `${l.from.externalId} ${l.relation} ${l.to.externalId}`).sort();
    expect(links).toEqual([
      'ing-web routes svc-web',
      'node-1 runs pod-1',
      'node-2 runs pod-2',
      'pod-1 uses cm-web',
      'svc-web selects pod-1',
      'svc-web selects pod-2',
    ]);

    expect(r.changes).toEqual([
      expect.objectContaining({
        type: 'Kubernetes::Pod',
        externalId: 'pod-2',
        externalChangeId: 'ev-1',
        changeType: 'BackOff',
        severity: 'high',
        source: 'kubernetes/kubelet',
        summary: 'Back-off restarting failed container web',
        createdAt: new Date('2026-11-25T09:00:00Z'),
      }),
      expect.objectContaining({ externalId: 'pod-1', changeType: 'Pulled', severity: 'info' }),
    ]);

    // pods were read a page at a time; secrets were never asked for
    const paths = api.requests.map((u) => u.pathname);
    expect(paths.filter((p) => p === '/api/v1/pods').length).toBe(3);
    expect(
      api.requests.find((u) => u.pathname === '/api/v1/pods' && u.searchParams.get('continue') === '2'),
    ).toBeTruthy();
    expect(paths.some((p) => p.includes('secret'))).toBe(false);
  });

  it('passes namespace, selector and fieldSelector to the API, and reads a kubeconfig connection', async () => {
    api.requests.length = 0;
    const r = await kubernetesKind(
      {
        clusterName: 'prod',
        connection: 'connection://default/prod-cluster',
        namespace: 'shop',
        selector: 'app=web',
        fieldSelector: 'status.phase=Running',
        exclusions: ['Event', 'ConfigMap'],
      },
      ctx({ 'connection://default/prod-cluster': { certificate: kubeconfig(api, 's3cret-token') } }),
    );
    expect(r.errors).toEqual([]);
    const podCalls = api.requests.filter((u) => u.pathname === '/api/v1/namespaces/shop/pods');
    expect(podCalls.length).toBeGreaterThan(0);
    for (const u of podCalls) {
      expect(u.searchParams.get('labelSelector')).toBe('app=web');
      expect(u.searchParams.get('fieldSelector')).toBe('status.phase=Running');
    }
    expect(api.requests.some((u) => u.pathname === '/api/v1/pods')).toBe(false);
    expect(api.requests.some((u) => u.pathname.endsWith('/configmaps'))).toBe(false);
    const nsCall = api.requests.find((u) => u.pathname === '/api/v1/namespaces');
    expect(nsCall?.searchParams.get('fieldSelector')).toBe('metadata.name=shop');
    expect(r.items.filter((i) => i.type === 'Kubernetes::Pod').map((i) => i.name)).toEqual(['web-abc-1', 'web-abc-2']);
    expect(r.items.filter((i) => i.type === 'Kubernetes::Namespace').map((i) => i.name)).toEqual(['shop']);
    expect(r.items.some((i) => i.type === 'Kubernetes::ConfigMap')).toBe(false);
  });

  it('reports a forbidden list as an error of its type and keeps the rest; refuses a bad token and a missing kubeconfig', async () => {
    api.forbid.add('configmaps');
    try {
      const r = await kubernetesKind(
        { clusterName: 'prod', kubeconfig: { value: kubeconfig(api, 's3cret-token') } },
        ctx(),
      );
      expect(r.errors).toEqual([
        { type: 'Kubernetes::ConfigMap', message: expect.stringMatching(/^listing ConfigMap: HTTP 403.*forbidden/) },
      ]);
      expect(r.items.some((i) => i.type === 'Kubernetes::Pod')).toBe(true);
    } finally {
      api.forbid.clear();
    }
    await expect(kubernetesKind({ clusterName: 'prod', kubeconfig: kubeconfig(api, 'wrong') }, ctx())).rejects.toThrow(
      /the Kubernetes API answered no list: .*HTTP 401/,
    );
    const saved = process.env.KUBERNETES_SERVICE_HOST;
    delete process.env.KUBERNETES_SERVICE_HOST;
    try {
      await expect(kubernetesKind({ clusterName: 'prod' }, ctx())).rejects.toThrow(
        /no kubeconfig given and not running inside a cluster/,
      );
    } finally {
      if (saved !== undefined) process.env.KUBERNETES_SERVICE_HOST = saved;
    }
  });

  it('refuses an inline kubeconfig that would run a program or read a server file (editors write specs)', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'kube-exec-')), 'ran');
    const withUser = (user: string) =>
      kubeconfig(api, 's3cret-token').replace(/ {4}token: s3cret-token\n/, `${user}\n`);
    for (const [user, word] of [
      [
        `    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: touch\n      args: ['${marker}']`,
        'exec',
      ],
      ['    token-file: /etc/hostname', 'token-file'],
      ['    client-key: /etc/hostname\n    client-certificate: /etc/hostname', 'client-certificate, client-key'],
    ] as const) {
      const text = withUser(user);
      expect(text).toContain(user.trim().split('\n')[0]);
      await expect(kubernetesKind({ clusterName: 'prod', kubeconfig: text }, ctx())).rejects.toThrow(
        new RegExp(`may not use ${word}`),
      );
    }
    expect(existsSync(marker)).toBe(false);
    await expect(kubernetesKind({ clusterName: 'prod', kubeconfig: '/etc/hostname' }, ctx())).rejects.toThrow(
      /a file path is read only from a kubernetes connection/,
    );
  });

  it('derives health for pods in each phase and maps event severities', () => {
    expect(deriveHealth('Pod', { status: { phase: 'Succeeded' } })).toEqual({
      health: 'healthy',
      status: 'Completed',
      ready: false,
    });
    expect(deriveHealth('Pod', { status: { phase: 'Failed', reason: 'Evicted' } })).toMatchObject({
      health: 'unhealthy',
      status: 'Evicted',
    });
    expect(
      deriveHealth('Pod', {
        status: { phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'Unschedulable')] },
      }),
    ).toMatchObject({ health: 'unhealthy', status: 'Unschedulable' });
    expect(deriveHealth('Pod', { status: { phase: 'Running', conditions: [cond('Ready', 'False')] } })).toMatchObject({
      health: 'warning',
      status: 'NotReady',
    });
    expect(deriveHealth('Deployment', { spec: { replicas: 0 }, status: {} })).toMatchObject({
      health: 'healthy',
      status: 'Scaled to 0',
    });
    expect(
      deriveHealth('Deployment', {
        spec: { replicas: 3 },
        status: { readyReplicas: 1, conditions: [cond('Progressing', 'False', 'ProgressDeadlineExceeded')] },
      }),
    ).toMatchObject({ health: 'unhealthy', status: 'ProgressDeadlineExceeded' });
    expect(deriveHealth('Service', { spec: { type: 'LoadBalancer' }, status: {} })).toMatchObject({
      health: 'warning',
      status: 'Pending',
    });
    expect(eventSeverity('Normal', 'Scheduled')).toBe('info');
    expect(eventSeverity('Warning', 'OOMKilling')).toBe('critical');
    expect(eventSeverity('Warning', 'BackOff')).toBe('high');
    expect(eventSeverity('Warning', 'SomethingOdd')).toBe('warning');
  });
});
