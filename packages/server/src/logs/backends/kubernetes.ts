/**
 * Kubernetes pod logs through @kubernetes/client-node (DESIGN section 7), with the kubeconfig of a
 * `kubernetes` connection (never one written into the backend's spec: a kubeconfig can run
 * programs on this server through `exec` users, and backends are written by editors, connections
 * only by administrators). The component's pods, in this order of choice:
 * - the source's labels (other than `namespace`) as a label selector;
 * - else the pods owned by the catalog workloads linked to the component (Deployments through
 *   their ReplicaSets, CronJobs through their Jobs, StatefulSets, DaemonSets, ReplicaSets and
 *   Jobs directly, by owner reference uid; a linked Pod itself), listed live from the API in the
 *   workload's namespace with its `matchLabels` selector;
 * - else `app=<component's app label or name>`,
 * in the namespace of the source's or component's `namespace` label (else the spec's, else
 * default). Each pod's containers are read since the range's start (`sinceSeconds`,
 * `timestamps=true`, at most TAIL lines each), or with `previous` their previous (terminated)
 * instance, for containers that restarted; merged newest first. Paging is by offset over that
 * merge; the total is exact unless a container hit TAIL.
 */
import * as k8s from '@kubernetes/client-node';
import type { LogLine } from '@watchdeck/core';
import { LogBackendError, reason } from '../errors.ts';
import { decodePage, encodePage, type BackendAnswer, type BackendQuery } from './types.ts';

export interface KubernetesSpec {
  connection: string;
  namespace?: string;
}

/** Kinds of catalog items whose pods a component's logs follow. */
export const WORKLOAD_TYPES = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
  'Pod',
] as const;

/** A catalog workload linked to the component (its scraped body's metadata and selector). */
export interface KubernetesWorkload {
  kind: (typeof WORKLOAD_TYPES)[number];
  name: string;
  namespace: string;
  uid?: string;
  matchLabels?: Record<string, string>;
}

export interface KubernetesTarget {
  kubeconfig: string;
  /** the component's labels and name: where its pods are */
  component: { name: string; labels: Record<string, string> };
  /** the log source's labels */
  sourceLabels?: Record<string, string>;
  /** the catalog workloads linked to the component */
  workloads?: KubernetesWorkload[];
  /** read the previous instance of each container that restarted */
  previous?: boolean;
}

const MAX_PODS = 20;
const TAIL = 5000;
const LIMIT_BYTES = 8 * 1024 * 1024;

type Token = { o: number };
const isToken = (v: unknown): v is Token =>
  !!v && typeof v === 'object' && Number.isInteger((v as Token).o) && (v as Token).o >= 0 && (v as Token).o <= 1e6;

const selectorOf = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/**
 * The text of a client-node failure: the API's Status message, else the 'Message:' line of its
 * ApiException (whose text also lists response headers, left out), else the connection error.
 */
function why(err: unknown): string {
  const body = (err as { body?: unknown })?.body;
  const parsed =
    typeof body === 'string'
      ? (() => {
          try {
            return JSON.parse(body) as unknown;
          } catch {
            return undefined;
          }
        })()
      : body;
  const status = parsed && typeof parsed === 'object' ? (parsed as { message?: unknown }).message : undefined;
  const code = (err as { code?: unknown })?.code;
  if (typeof status === 'string' && status) return typeof code === 'number' ? `${code} ${status}` : status;
  const text = reason(err);
  const line = /^Message: (.*)$/m.exec(text)?.[1];
  if (typeof code === 'number') return `${code}${line ? ` ${line}` : ''}`;
  return text.split('\n')[0];
}

type Owned = { metadata?: k8s.V1ObjectMeta };
const ownedBy = (o: Owned, owners: { uid?: string; kind: string; name: string }[]) =>
  (o.metadata?.ownerReferences ?? []).some((ref) =>
    owners.some((w) => (w.uid ? ref.uid === w.uid : ref.kind === w.kind && ref.name === w.name)),
  );

/** The pods a workload owns, listed now (Deployments through ReplicaSets, CronJobs through Jobs). */
async function podsOf(kc: k8s.KubeConfig, w: KubernetesWorkload): Promise<k8s.V1Pod[]> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const namespace = w.namespace;
  const labelSelector = w.matchLabels && Object.keys(w.matchLabels).length ? selectorOf(w.matchLabels) : undefined;
  if (w.kind === 'Pod') return [await core.readNamespacedPod({ name: w.name, namespace })];
  let owners: { uid?: string; kind: string; name: string }[] = [w];
  if (w.kind === 'Deployment') {
    const sets = await kc.makeApiClient(k8s.AppsV1Api).listNamespacedReplicaSet({ namespace, labelSelector });
    owners = sets.items
      .filter((rs) => ownedBy(rs, [w]))
      .map((rs) => ({ uid: rs.metadata?.uid, kind: 'ReplicaSet', name: rs.metadata?.name ?? '' }));
  } else if (w.kind === 'CronJob') {
    const jobs = await kc.makeApiClient(k8s.BatchV1Api).listNamespacedJob({ namespace, limit: 200 });
    owners = jobs.items
      .filter((j) => ownedBy(j, [w]))
      .map((j) => ({ uid: j.metadata?.uid, kind: 'Job', name: j.metadata?.name ?? '' }));
  }
  if (!owners.length) return [];
  const pods = await core.listNamespacedPod({
    namespace,
    labelSelector: w.kind === 'CronJob' ? undefined : labelSelector,
    limit: 500,
  });
  return pods.items.filter((p) => ownedBy(p, owners));
}

export async function searchKubernetes(
  spec: KubernetesSpec,
  target: KubernetesTarget,
  q: BackendQuery,
): Promise<BackendAnswer> {
  const token = decodePage(q.page, isToken);
  const kc = new k8s.KubeConfig();
  try {
    kc.loadFromString(target.kubeconfig);
  } catch (err) {
    throw new LogBackendError(`connection ${spec.connection} holds no usable kubeconfig: ${reason(err)}`);
  }
  const server = kc.getCurrentCluster()?.server ?? '(no cluster)';
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const { namespace: sourceNs, ...sourceSelector } = target.sourceLabels ?? {};
  const namespace = sourceNs ?? target.component.labels.namespace ?? spec.namespace ?? 'default';
  const labelSelector = Object.keys(sourceSelector).length
    ? selectorOf(sourceSelector)
    : `app=${target.component.labels.app ?? target.component.name}`;

  let pods: k8s.V1Pod[] = [];
  const workloads = Object.keys(sourceSelector).length ? [] : (target.workloads ?? []);
  for (const w of workloads) {
    try {
      pods.push(...(await podsOf(kc, w)));
    } catch (err) {
      throw new LogBackendError(
        `Kubernetes at ${server} did not list the pods of ${w.kind} ${w.namespace}/${w.name}: ${why(err)}`,
      );
    }
    if (pods.length >= MAX_PODS) break;
  }
  pods = pods.slice(0, MAX_PODS);
  if (!workloads.length)
    try {
      pods = (await core.listNamespacedPod({ namespace, labelSelector, limit: MAX_PODS })).items;
    } catch (err) {
      throw new LogBackendError(
        `Kubernetes at ${server} did not list the pods (${namespace}, ${labelSelector}): ${why(err)}`,
      );
    }
  const sinceSeconds = Math.max(1, Math.ceil((Date.now() - q.startMs) / 1000));
  const needle = q.text?.trim().toLowerCase() || undefined;
  const lines: { time: number; line: LogLine }[] = [];
  let capped = false;
  for (const pod of pods) {
    const name = pod.metadata?.name;
    if (!name) continue;
    const podNs = pod.metadata?.namespace ?? namespace;
    const restarted = new Set(
      (pod.status?.containerStatuses ?? []).filter((c) => (c.restartCount ?? 0) > 0).map((c) => c.name),
    );
    for (const container of pod.spec?.containers ?? []) {
      // a container that never restarted has no previous instance (the API would answer 400)
      if (target.previous && !restarted.has(container.name)) continue;
      let text: string;
      try {
        text = await core.readNamespacedPodLog({
          name,
          namespace: podNs,
          container: container.name,
          timestamps: true,
          sinceSeconds,
          tailLines: TAIL,
          limitBytes: LIMIT_BYTES,
          ...(target.previous ? { previous: true } : {}),
        });
      } catch (err) {
        throw new LogBackendError(`Kubernetes at ${server} did not give the logs of ${podNs}/${name}: ${why(err)}`);
      }
      const raw = String(text ?? '').split('\n');
      if (raw.length >= TAIL) capped = true;
      for (const l of raw) {
        if (!l) continue;
        // timestamps=true: an RFC 3339 time with nanoseconds, a space, the line
        const space = l.indexOf(' ');
        const time = Date.parse(l.slice(0, space).replace(/(\.\d{3})\d+/, '$1'));
        if (space < 0 || Number.isNaN(time) || time < q.startMs || time > q.endMs) continue;
        const message = l.slice(space + 1);
        if (needle && !message.toLowerCase().includes(needle)) continue;
        lines.push({
          time,
          line: {
            timestamp: new Date(time).toISOString(),
            message,
            labels: {
              namespace: podNs,
              pod: name,
              container: container.name,
              ...(target.previous ? { previous: 'true' } : {}),
            },
          },
        });
      }
    }
  }
  lines.sort((a, b) => b.time - a.time);
  const offset = token?.o ?? 0;
  const page = lines.slice(offset, offset + q.limit);
  const more = offset + q.limit < lines.length;
  return {
    results: page.map((l) => l.line),
    total: lines.length,
    totalRelation: capped ? 'gte' : 'eq',
    next: more ? encodePage({ o: offset + q.limit } satisfies Token) : undefined,
  };
}
