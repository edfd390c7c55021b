/**
 * The `kubernetes` scraper kind: reads a cluster through @kubernetes/client-node with a kubeconfig
 * (inline, a file path, or a kubernetes connection) or the in-cluster service account, and
 * returns its namespaces, nodes, workloads, pods, services, ingresses and config maps as items,
 * its events as changes, owner references as parents and the links the objects name (a pod's
 * node and config maps, a service's pods, an ingress's services). Secrets are never read.
 */
import * as k8s from '@kubernetes/client-node';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type {
  ItemRef,
  ScrapeContext,
  ScrapedChange,
  ScrapedItem,
  ScrapedRelationship,
  ScrapeError,
  ScrapeResult,
  ScraperKind,
  Severity,
} from '../types.ts';
import { deriveHealth } from './kubernetes-health.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects are read as JSON */

type Lister = (opts: {
  labelSelector?: string;
  fieldSelector?: string;
  limit: number;
  _continue?: string;
  namespace?: string;
}) => Promise<any>;

interface Resource {
  kind: string;
  apiVersion: string;
  namespaced: boolean;
  all: (c: Clients) => Lister;
  inNamespace?: (c: Clients) => Lister;
}

interface Clients {
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  batch: k8s.BatchV1Api;
  net: k8s.NetworkingV1Api;
}

/** What is read, in this order (parents before children keeps the hierarchy easy to follow). */
const RESOURCES: Resource[] = [
  { kind: 'Namespace', apiVersion: 'v1', namespaced: false, all: (c) => (o) => c.core.listNamespace(o) },
  { kind: 'Node', apiVersion: 'v1', namespaced: false, all: (c) => (o) => c.core.listNode(o) },
  {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    namespaced: true,
    all: (c) => (o) => c.apps.listDeploymentForAllNamespaces(o),
    inNamespace: (c) => (o) => c.apps.listNamespacedDeployment(o as any),
  },
  {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    namespaced: true,
    all: (c) => (o) => c.apps.listStatefulSetForAllNamespaces(o),
    inNamespace: (c) => (o) => c.apps.listNamespacedStatefulSet(o as any),
  },
  {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    namespaced: true,
    all: (c) => (o) => c.apps.listDaemonSetForAllNamespaces(o),
    inNamespace: (c) => (o) => c.apps.listNamespacedDaemonSet(o as any),
  },
  {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    namespaced: true,
    all: (c) => (o) => c.apps.listReplicaSetForAllNamespaces(o),
    inNamespace: (c) => (o) => c.apps.listNamespacedReplicaSet(o as any),
  },
  {
    kind: 'CronJob',
    apiVersion: 'batch/v1',
    namespaced: true,
    all: (c) => (o) => c.batch.listCronJobForAllNamespaces(o),
    inNamespace: (c) => (o) => c.batch.listNamespacedCronJob(o as any),
  },
  {
    kind: 'Job',
    apiVersion: 'batch/v1',
    namespaced: true,
    all: (c) => (o) => c.batch.listJobForAllNamespaces(o),
    inNamespace: (c) => (o) => c.batch.listNamespacedJob(o as any),
  },
  {
    kind: 'Pod',
    apiVersion: 'v1',
    namespaced: true,
    all: (c) => (o) => c.core.listPodForAllNamespaces(o),
    inNamespace: (c) => (o) => c.core.listNamespacedPod(o as any),
  },
  {
    kind: 'Service',
    apiVersion: 'v1',
    namespaced: true,
    all: (c) => (o) => c.core.listServiceForAllNamespaces(o),
    inNamespace: (c) => (o) => c.core.listNamespacedService(o as any),
  },
  {
    kind: 'Ingress',
    apiVersion: 'networking.k8s.io/v1',
    namespaced: true,
    all: (c) => (o) => c.net.listIngressForAllNamespaces(o),
    inNamespace: (c) => (o) => c.net.listNamespacedIngress(o as any),
  },
  {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    namespaced: true,
    all: (c) => (o) => c.core.listConfigMapForAllNamespaces(o),
    inNamespace: (c) => (o) => c.core.listNamespacedConfigMap(o as any),
  },
];

const PAGE = 500;

/** Exclusions: `[kinds]` or `{name, namespace, kind: [globs], labels: {k: v}}`. */
interface Exclusions {
  name: RegExp[];
  namespace: RegExp[];
  kind: RegExp[];
  labels: Record<string, string>;
}

const glob = (p: string) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
const globs = (v: unknown): RegExp[] =>
  (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []).filter((x): x is string => typeof x === 'string').map(glob);

function parseExclusions(v: unknown): Exclusions {
  if (Array.isArray(v)) return { name: [], namespace: [], kind: globs(v), labels: {} };
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const labels = o.labels && typeof o.labels === 'object' ? (o.labels as Record<string, string>) : {};
  return { name: globs(o.name), namespace: globs(o.namespace), kind: globs(o.kind), labels };
}

function excluded(ex: Exclusions, kind: string, obj: any): boolean {
  const m = obj.metadata ?? {};
  if (ex.kind.some((r) => r.test(kind))) return true;
  if (m.name && ex.name.some((r) => r.test(m.name))) return true;
  if (m.namespace && ex.namespace.some((r) => r.test(m.namespace))) return true;
  for (const [k, val] of Object.entries(ex.labels))
    if (m.labels?.[k] !== undefined && glob(String(val)).test(m.labels[k])) return true;
  return false;
}

/** The object as `kubectl get -o json` shows it: plain JSON, timestamps in RFC 3339, no managedFields. */
function plain(kind: string, apiVersion: string, obj: any): any {
  const json = JSON.parse(
    JSON.stringify(obj, function (this: any, key: string, value: unknown) {
      const orig = this[key];
      return orig instanceof Date ? orig.toISOString().replace('.000Z', 'Z') : value;
    }),
  );
  if (json.metadata) delete json.metadata.managedFields;
  return { apiVersion, kind, ...json };
}

/** kubeconfig keys that make the client run a program or read a file of this server */
const USER_SIDE_EFFECTS = ['exec', 'auth-provider', 'token-file', 'client-certificate', 'client-key'];
const CLUSTER_SIDE_EFFECTS = ['certificate-authority'];

/**
 * A kubeconfig written in a scraper spec comes from an editor, and editors must not run programs
 * or read files on the server through it (connections, written by admins, may). Checked on the
 * parsed YAML, before the client library loads it: loading already reads token files.
 */
function refuseServerSideEffects(text: string): void {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    throw new Error('kubeconfig is not valid YAML');
  }
  if (!doc || typeof doc !== 'object') {
    if (!text.includes('\n') && text.trim().startsWith('/'))
      throw new Error('kubeconfig: a file path is read only from a kubernetes connection');
    throw new Error('kubeconfig is not a kubeconfig document');
  }
  const named = (list: unknown, key: string) =>
    Array.isArray(list)
      ? list.map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>)[key] : null))
      : [];
  const offending = [
    ...named((doc as Record<string, unknown>).users, 'user').flatMap((u) =>
      u && typeof u === 'object' ? USER_SIDE_EFFECTS.filter((k) => k in u) : [],
    ),
    ...named((doc as Record<string, unknown>).clusters, 'cluster').flatMap((c) =>
      c && typeof c === 'object' ? CLUSTER_SIDE_EFFECTS.filter((k) => k in c) : [],
    ),
  ];
  if (offending.length)
    throw new Error(
      `kubeconfig in a scraper spec may not use ${[...new Set(offending)].join(', ')} (they run programs or read files on the server): put it in a kubernetes connection`,
    );
}

async function kubeConfig(spec: Record<string, unknown>, ctx: ScrapeContext): Promise<k8s.KubeConfig> {
  const kc = new k8s.KubeConfig();
  let text: string | undefined;
  const raw = spec.kubeconfig;
  const connection =
    typeof spec.connection === 'string'
      ? spec.connection
      : typeof raw === 'string' && raw.startsWith('connection://')
        ? raw
        : undefined;
  if (connection) {
    const c = await ctx.connection(connection);
    text = [c.certificate, c.kubeconfig, c.password].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (!text) throw new Error(`connection ${connection} holds no kubeconfig`);
  } else if (typeof raw === 'string' && raw.trim()) text = raw;
  else if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    if (typeof o.value === 'string' && o.value.trim()) text = o.value;
    else if (o.valueFrom)
      throw new Error('kubeconfig.valueFrom is not supported: put the kubeconfig in a kubernetes connection');
  }
  if (text !== undefined) {
    if (connection) {
      // a one-line value naming an existing file is a path, anything else the kubeconfig itself
      if (!text.includes('\n') && existsSync(text.trim())) text = readFileSync(text.trim(), 'utf8');
    } else refuseServerSideEffects(text);
    kc.loadFromString(text);
  } else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else throw new Error('no kubeconfig given and not running inside a cluster (KUBERNETES_SERVICE_HOST is not set)');
  return kc;
}

const CRITICAL_REASONS = new Set([
  'OOMKilling',
  'OOMKilled',
  'Evicted',
  'NodeNotReady',
  'SystemOOM',
  'FailedScheduling',
  'FailedMount',
]);
const HIGH_REASONS = new Set([
  'BackOff',
  'Failed',
  'FailedCreate',
  'Unhealthy',
  'FailedAttachVolume',
  'NetworkNotReady',
]);

/** A Kubernetes event's severity from its type and reason. */
export function eventSeverity(type: string | undefined, reason: string | undefined): Severity {
  if (type !== 'Warning') return 'info';
  if (reason && CRITICAL_REASONS.has(reason)) return 'critical';
  if (reason && HIGH_REASONS.has(reason)) return 'high';
  return 'warning';
}

const ref = (kind: string, uid: string): ItemRef => ({ type: `Kubernetes::${kind}`, externalId: uid });

export const kubernetesKind: ScraperKind = async (spec, ctx) => {
  const clusterName = typeof spec.clusterName === 'string' && spec.clusterName ? spec.clusterName : 'kubernetes';
  const kc = await kubeConfig(spec, ctx);
  const c: Clients = {
    core: kc.makeApiClient(k8s.CoreV1Api),
    apps: kc.makeApiClient(k8s.AppsV1Api),
    batch: kc.makeApiClient(k8s.BatchV1Api),
    net: kc.makeApiClient(k8s.NetworkingV1Api),
  };
  const namespace = typeof spec.namespace === 'string' && spec.namespace ? spec.namespace : undefined;
  const labelSelector = typeof spec.selector === 'string' && spec.selector ? spec.selector : undefined;
  const fieldSelector = typeof spec.fieldSelector === 'string' && spec.fieldSelector ? spec.fieldSelector : undefined;
  const ex = parseExclusions(spec.exclusions);
  const maxInFlight = Math.max(1, Number(spec.maxInFlight) || 64);
  const result: ScrapeResult = { items: [], changes: [], relationships: [], errors: [] };
  const fail = (e: ScrapeError) => void result.errors.push(e);
  const add = (i: ScrapedItem) => void result.items.push(i);
  const relate = (r: ScrapedRelationship) => void result.relationships.push(r);
  const change = (c: ScrapedChange) => void result.changes.push(c);

  const listAll = async (
    list: Lister,
    extra: { namespace?: string; labelSelector?: string; fieldSelector?: string },
  ) => {
    const out: any[] = [];
    let token: string | undefined;
    do {
      if (ctx.signal.aborted) throw new Error('scrape cancelled');
      const page = await list({ ...extra, limit: PAGE, _continue: token });
      out.push(...(page.items ?? []));
      token = page.metadata?._continue || undefined;
    } while (token);
    return out;
  };

  // read every kind, at most maxInFlight lists at once
  const wanted = RESOURCES.filter((r) => !ex.kind.some((k) => k.test(r.kind)));
  const objects = new Map<string, any[]>();
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const r = wanted[next++];
      try {
        let items: any[];
        if (r.kind === 'Namespace' && namespace)
          items = await listAll(r.all(c), { fieldSelector: `metadata.name=${namespace}` });
        else if (r.kind === 'Namespace' || r.kind === 'Node')
          items = await listAll(r.all(c), {
            labelSelector: r.kind === 'Node' ? undefined : labelSelector,
            fieldSelector: r.kind === 'Node' ? undefined : fieldSelector,
          });
        else if (namespace && r.inNamespace)
          items = await listAll(r.inNamespace(c), { namespace, labelSelector, fieldSelector });
        else items = await listAll(r.all(c), { labelSelector, fieldSelector });
        objects.set(
          r.kind,
          items.map((o) => plain(r.kind, r.apiVersion, o)).filter((o) => !excluded(ex, r.kind, o)),
        );
      } catch (err) {
        fail({ type: `Kubernetes::${r.kind}`, message: `listing ${r.kind}: ${errorText(err)}` });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(maxInFlight, wanted.length) }, worker));
  if (result.errors.length === wanted.length)
    throw new Error(`the Kubernetes API answered no list: ${result.errors[0]?.message}`);

  const clusterRef: ItemRef = { type: 'Kubernetes::Cluster', externalId: `cluster/${clusterName}` };
  add({
    ...clusterRef,
    configClass: 'Cluster',
    name: clusterName,
    tags: { cluster: clusterName },
    config: { name: clusterName, server: kc.getCurrentCluster()?.server },
    health: 'healthy',
    status: 'Reachable',
    ready: true,
  });
  const nsUid = new Map<string, string>();
  for (const ns of objects.get('Namespace') ?? []) nsUid.set(ns.metadata.name, ns.metadata.uid);
  const uidOf = new Map<string, string>(); // "Kind/ns/name" -> uid
  for (const [kind, list] of objects)
    for (const o of list) uidOf.set(`${kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.uid);

  for (const [kind, list] of objects) {
    for (const o of list) {
      const m = o.metadata ?? {};
      if (!m.uid) continue;
      const owners: ItemRef[] = [...(m.ownerReferences ?? [])]
        .sort((a: any, b: any) => Number(Boolean(b.controller)) - Number(Boolean(a.controller)))
        .map((r: any) => ref(r.kind, r.uid));
      const parents = owners.length
        ? owners
        : m.namespace && nsUid.has(m.namespace)
          ? [ref('Namespace', nsUid.get(m.namespace)!)]
          : kind === 'Namespace' || kind === 'Node'
            ? [clusterRef]
            : [];
      const derived = deriveHealth(kind, o);
      add({
        ...ref(kind, m.uid),
        configClass: kind,
        name: m.name,
        namespace: m.namespace,
        labels: m.labels ?? {},
        tags: { cluster: clusterName, ...(m.namespace ? { namespace: m.namespace } : {}) },
        config: o,
        format: 'json',
        source: `kubernetes/${clusterName}`,
        createdAt: m.creationTimestamp ? new Date(m.creationTimestamp) : undefined,
        deletedAt: m.deletionTimestamp ? new Date(m.deletionTimestamp) : undefined,
        health: derived.health,
        status: derived.status,
        ready: derived.ready,
        parents,
      });
      const ns = m.namespace ?? '';
      const link = (toKind: string, toNs: string, toName: string, relation: string, reverse = false) => {
        const uid = uidOf.get(`${toKind}/${toNs}/${toName}`);
        if (!uid) return;
        const a = ref(kind, m.uid);
        const b = ref(toKind, uid);
        relate(reverse ? { from: b, to: a, relation } : { from: a, to: b, relation });
      };
      if (kind === 'Pod') {
        if (o.spec?.nodeName) link('Node', '', o.spec.nodeName, 'runs', true);
        const cms = new Set<string>();
        for (const v of o.spec?.volumes ?? []) if (v.configMap?.name) cms.add(v.configMap.name);
        for (const ct of [...(o.spec?.containers ?? []), ...(o.spec?.initContainers ?? [])]) {
          for (const e of ct.envFrom ?? []) if (e.configMapRef?.name) cms.add(e.configMapRef.name);
          for (const e of ct.env ?? [])
            if (e.valueFrom?.configMapKeyRef?.name) cms.add(e.valueFrom.configMapKeyRef.name);
        }
        for (const cm of cms) link('ConfigMap', ns, cm, 'uses');
      }
      if (kind === 'Service' && o.spec?.selector && Object.keys(o.spec.selector).length) {
        for (const p of objects.get('Pod') ?? [])
          if (
            p.metadata.namespace === ns &&
            Object.entries(o.spec.selector).every(([k, v]) => p.metadata.labels?.[k] === v)
          )
            link('Pod', ns, p.metadata.name, 'selects');
      }
      if (kind === 'Ingress') {
        const services = new Set<string>();
        if (o.spec?.defaultBackend?.service?.name) services.add(o.spec.defaultBackend.service.name);
        for (const rule of o.spec?.rules ?? [])
          for (const p of rule.http?.paths ?? []) if (p.backend?.service?.name) services.add(p.backend.service.name);
        for (const s of services) link('Service', ns, s, 'routes');
      }
    }
  }

  // events: changes of the objects they are about (never an item of their own)
  try {
    const events = namespace
      ? await listAll((o) => c.core.listNamespacedEvent(o as any), { namespace })
      : await listAll((o) => c.core.listEventForAllNamespaces(o), {});
    for (const raw of events) {
      const e = plain('Event', 'v1', raw);
      const io = e.involvedObject ?? {};
      if (!io.uid || !io.kind) continue;
      const at = e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp;
      change({
        ...ref(io.kind, io.uid),
        externalChangeId: e.metadata?.uid,
        changeType: e.reason ?? 'Event',
        severity: eventSeverity(e.type, e.reason),
        source: `kubernetes/${e.source?.component ?? e.reportingComponent ?? 'events'}`,
        summary: e.message,
        details: e,
        createdAt: at ? new Date(at) : undefined,
        createdBy: e.source?.component ?? e.reportingComponent ?? undefined,
      });
    }
  } catch (err) {
    fail({ type: 'Kubernetes::Event', message: `listing Event: ${errorText(err)}` });
  }
  return result;
};

function errorText(err: unknown): string {
  // the client's ApiException: code, body (the API's Status object), and a multi-line message
  const e = err as { code?: number; body?: unknown; message?: string };
  if (typeof e?.code === 'number') {
    const body = typeof e.body === 'string' ? safeJson(e.body) : e.body;
    const msg = (body as { message?: string } | undefined)?.message ?? /Message: (.*)/.exec(e.message ?? '')?.[1];
    return `HTTP ${e.code}${msg ? `: ${msg}` : ''}`;
  }
  return e?.message ?? String(err);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) };
  }
}
