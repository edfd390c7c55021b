/**
 * The built-in analyzers: what they find in one config item. Kubernetes objects are recognised
 * by their body (apiVersion and kind), so manifests read by a file scraper are analysed like
 * objects read from a cluster.
 */
import type { Severity } from '../scrape/types.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- config bodies are read as JSON */

export interface AnalyzedItem {
  id: string;
  type: string;
  config: any;
  health: string | null;
  health_changed_at: Date | string | null;
  deleted_at: Date | string | null;
}

type AnalysisType =
  | 'cost'
  | 'availability'
  | 'performance'
  | 'security'
  | 'integration'
  | 'compliance'
  | 'technical_debt'
  | 'reliability'
  | 'recommendation'
  | 'other';

export interface Finding {
  analyzer: string;
  analysisType: AnalysisType;
  severity: Severity;
  summary: string;
  message: string;
  analysis?: Record<string, unknown>;
}

export interface Analyzer {
  name: string;
  run(item: AnalyzedItem, now: Date): Finding | undefined;
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

/** The pod spec of a workload; undefined for objects that run nothing, and for objects a controller owns (their owner is reported). */
function podSpec(obj: any): any {
  if (!obj || typeof obj !== 'object' || !WORKLOADS.has(obj.kind) || typeof obj.apiVersion !== 'string')
    return undefined;
  if ((obj.metadata?.ownerReferences ?? []).length) return undefined;
  if (obj.kind === 'Pod') return obj.spec;
  if (obj.kind === 'CronJob') return obj.spec?.jobTemplate?.spec?.template?.spec;
  return obj.spec?.template?.spec;
}

const containersOf = (spec: any): any[] => [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
const label = (obj: any) =>
  `${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name ?? ''}`;

const noLimits: Analyzer = {
  name: 'kubernetes-no-resource-limits',
  run(item) {
    const spec = podSpec(item.config);
    if (!spec) return undefined;
    const missing = containersOf(spec)
      .filter((c) => !c?.resources?.limits?.cpu || !c?.resources?.limits?.memory)
      .map((c) => String(c?.name));
    if (!missing.length) return undefined;
    return {
      analyzer: this.name,
      analysisType: 'reliability',
      severity: 'medium',
      summary: 'Containers without resource limits',
      message: `${label(item.config)}: container${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'have' : 'has'} no CPU or memory limit`,
      analysis: { containers: missing },
    };
  },
};

const rootOrPrivileged: Analyzer = {
  name: 'kubernetes-root-or-privileged',
  run(item) {
    const spec = podSpec(item.config);
    if (!spec) return undefined;
    const pod = spec.securityContext ?? {};
    const problems: string[] = [];
    let severity: Severity = 'medium';
    for (const c of containersOf(spec)) {
      const sc = c?.securityContext ?? {};
      const name = String(c?.name);
      if (sc.privileged === true) {
        problems.push(`${name} is privileged`);
        severity = 'high';
      }
      const uid = sc.runAsUser ?? pod.runAsUser;
      const nonRoot = sc.runAsNonRoot ?? pod.runAsNonRoot;
      if (uid === 0) {
        problems.push(`${name} runs as root (runAsUser 0)`);
        severity = 'high';
      } else if (uid === undefined && nonRoot !== true)
        problems.push(`${name} may run as root (neither runAsNonRoot nor runAsUser is set)`);
    }
    if (!problems.length) return undefined;
    return {
      analyzer: this.name,
      analysisType: 'security',
      severity,
      summary: 'Containers running as root or privileged',
      message: `${label(item.config)}: ${problems.join('; ')}`,
      analysis: { problems },
    };
  },
};

/** An image reference's tag: `latest` when none is given (a digest pins the image). */
function tagOf(image: string): string | undefined {
  if (image.includes('@')) return undefined;
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.lastIndexOf(':');
  return colon < 0 ? 'latest' : last.slice(colon + 1);
}

const latestTag: Analyzer = {
  name: 'kubernetes-latest-tag',
  run(item) {
    const spec = podSpec(item.config);
    if (!spec) return undefined;
    const images = containersOf(spec)
      .map((c) => c?.image)
      .filter((i): i is string => typeof i === 'string' && tagOf(i) === 'latest');
    if (!images.length) return undefined;
    return {
      analyzer: this.name,
      analysisType: 'reliability',
      severity: 'low',
      summary: "Images with the 'latest' tag",
      message: `${label(item.config)}: ${[...new Set(images)].join(', ')} ${images.length > 1 ? 'use' : 'uses'} the 'latest' tag (or no tag): what runs changes without a change to the spec`,
      analysis: { images },
    };
  },
};

/** API versions the Kubernetes project deprecated and removed, with what replaces them. */
const DEPRECATED: Record<string, { use: string; removed: string; kinds?: string[] }> = {
  'extensions/v1beta1': { use: 'apps/v1 or networking.k8s.io/v1', removed: '1.22' },
  'apps/v1beta1': { use: 'apps/v1', removed: '1.16' },
  'apps/v1beta2': { use: 'apps/v1', removed: '1.16' },
  'batch/v1beta1': { use: 'batch/v1', removed: '1.25', kinds: ['CronJob'] },
  'batch/v2alpha1': { use: 'batch/v1', removed: '1.21' },
  'networking.k8s.io/v1beta1': { use: 'networking.k8s.io/v1', removed: '1.22' },
  'policy/v1beta1': { use: 'policy/v1', removed: '1.25' },
  'autoscaling/v2beta1': { use: 'autoscaling/v2', removed: '1.25' },
  'autoscaling/v2beta2': { use: 'autoscaling/v2', removed: '1.26' },
  'rbac.authorization.k8s.io/v1beta1': { use: 'rbac.authorization.k8s.io/v1', removed: '1.22' },
  'apiextensions.k8s.io/v1beta1': { use: 'apiextensions.k8s.io/v1', removed: '1.22' },
  'admissionregistration.k8s.io/v1beta1': { use: 'admissionregistration.k8s.io/v1', removed: '1.22' },
  'certificates.k8s.io/v1beta1': { use: 'certificates.k8s.io/v1', removed: '1.22' },
  'coordination.k8s.io/v1beta1': { use: 'coordination.k8s.io/v1', removed: '1.22' },
  'scheduling.k8s.io/v1beta1': { use: 'scheduling.k8s.io/v1', removed: '1.22' },
  'storage.k8s.io/v1beta1': { use: 'storage.k8s.io/v1', removed: '1.27' },
  'discovery.k8s.io/v1beta1': { use: 'discovery.k8s.io/v1', removed: '1.25' },
  'events.k8s.io/v1beta1': { use: 'events.k8s.io/v1', removed: '1.25' },
  'node.k8s.io/v1beta1': { use: 'node.k8s.io/v1', removed: '1.25' },
  'flowcontrol.apiserver.k8s.io/v1beta2': { use: 'flowcontrol.apiserver.k8s.io/v1', removed: '1.29' },
  'flowcontrol.apiserver.k8s.io/v1beta3': { use: 'flowcontrol.apiserver.k8s.io/v1', removed: '1.32' },
};

const deprecatedApi: Analyzer = {
  name: 'kubernetes-deprecated-api',
  run(item) {
    const obj = item.config;
    if (!obj || typeof obj !== 'object' || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string')
      return undefined;
    // an object read from the API comes in the current version; the version its author wrote is in
    // kubectl's last-applied annotation
    const versions: string[] = [obj.apiVersion];
    const applied = obj.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
    if (typeof applied === 'string') {
      try {
        const v = JSON.parse(applied)?.apiVersion;
        if (typeof v === 'string') versions.push(v);
      } catch {
        /* not JSON: nothing to read */
      }
    }
    const hit = versions.find(
      (v) => DEPRECATED[v] && (!DEPRECATED[v].kinds || DEPRECATED[v].kinds!.includes(obj.kind)),
    );
    if (!hit) return undefined;
    const d = DEPRECATED[hit];
    return {
      analyzer: this.name,
      analysisType: 'technical_debt',
      severity: 'medium',
      summary: 'Deprecated Kubernetes API version',
      message: `${label(obj)} uses ${hit}, removed in Kubernetes ${d.removed}: use ${d.use}`,
      analysis: { apiVersion: hit, removedIn: d.removed, replacement: d.use },
    };
  },
};

const UNHEALTHY_FOR_MS = 3_600_000;

const unhealthyForAnHour: Analyzer = {
  name: 'unhealthy-over-1h',
  run(item, now) {
    if (item.health !== 'unhealthy' || !item.health_changed_at) return undefined;
    const since = new Date(item.health_changed_at);
    if (now.getTime() - since.getTime() < UNHEALTHY_FOR_MS) return undefined;
    const hours = Math.floor((now.getTime() - since.getTime()) / 3_600_000);
    return {
      analyzer: this.name,
      analysisType: 'availability',
      severity: 'high',
      summary: 'Unhealthy for over an hour',
      message: `${item.type} has been unhealthy since ${since.toISOString()} (${hours} h)`,
      analysis: { since: since.toISOString() },
    };
  },
};

export const ANALYZERS: Analyzer[] = [noLimits, rootOrPrivileged, latestTag, deprecatedApi, unhealthyForAnHour];
