/**
 * Kubernetes pod logs through @kubernetes/client-node (DESIGN section 7), with the kubeconfig of a
 * `kubernetes` connection (never one written into the backend's spec: a kubeconfig can run
 * programs on this server through `exec` users, and backends are written by editors, connections
 * only by administrators). The component's pods: in the namespace of the source's or component's
 * `namespace` label (else the spec's, else default), chosen by the source's other labels as a label
 * selector, else `app=<component's app label or name>`. Each pod's containers are read since the
 * range's start (`sinceSeconds`, `timestamps=true`, at most TAIL lines each) and merged newest
 * first. Paging is by offset over that merge; the total is exact unless a container hit TAIL.
 */
import * as k8s from '@kubernetes/client-node';
import type { LogLine } from '@watchdeck/core';
import { LogBackendError, reason } from '../errors.ts';
import { decodePage, encodePage, type BackendAnswer, type BackendQuery } from './types.ts';

export interface KubernetesSpec {
  connection: string;
  namespace?: string;
}

export interface KubernetesTarget {
  kubeconfig: string;
  /** the component's labels and name: where its pods are */
  component: { name: string; labels: Record<string, string> };
  /** the log source's labels */
  sourceLabels?: Record<string, string>;
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

  let pods: k8s.V1Pod[];
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
    for (const container of pod.spec?.containers ?? []) {
      let text: string;
      try {
        text = await core.readNamespacedPodLog({
          name,
          namespace,
          container: container.name,
          timestamps: true,
          sinceSeconds,
          tailLines: TAIL,
          limitBytes: LIMIT_BYTES,
        });
      } catch (err) {
        throw new LogBackendError(`Kubernetes at ${server} did not give the logs of ${namespace}/${name}: ${why(err)}`);
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
            labels: { namespace, pod: name, container: container.name },
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
