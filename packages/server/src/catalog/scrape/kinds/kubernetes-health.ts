/**
 * Health, status and readiness of the Kubernetes built-in types, from the object as the API
 * returns it: conditions and phases (pods, nodes, namespaces, jobs), replica counts (workloads).
 */
import type { Health } from '../types.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects are read as JSON */
export interface Derived {
  health: Health;
  status?: string;
  ready: boolean;
}

const BAD_WAITING = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'CreateContainerConfigError',
  'CreateContainerError',
  'InvalidImageName',
  'RunContainerError',
]);

const condition = (obj: any, type: string): any => (obj?.status?.conditions ?? []).find((c: any) => c?.type === type);

function pod(obj: any): Derived {
  const st = obj.status ?? {};
  const phase: string = st.phase ?? 'Unknown';
  const containers = [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])];
  for (const c of containers) {
    const reason = c?.state?.waiting?.reason;
    if (reason && BAD_WAITING.has(reason)) return { health: 'unhealthy', status: reason, ready: false };
  }
  if (obj.metadata?.deletionTimestamp) return { health: 'warning', status: 'Terminating', ready: false };
  const ready = condition(obj, 'Ready')?.status === 'True';
  switch (phase) {
    case 'Succeeded':
      return { health: 'healthy', status: 'Completed', ready: false };
    case 'Failed':
      return { health: 'unhealthy', status: st.reason ?? 'Failed', ready: false };
    case 'Pending': {
      const waiting = containers.map((c) => c?.state?.waiting?.reason).find(Boolean);
      const unschedulable = condition(obj, 'PodScheduled')?.reason === 'Unschedulable';
      return {
        health: unschedulable ? 'unhealthy' : 'warning',
        status: unschedulable ? 'Unschedulable' : (waiting ?? 'Pending'),
        ready: false,
      };
    }
    case 'Running':
      return ready ? { health: 'healthy', status: 'Running', ready } : { health: 'warning', status: 'NotReady', ready };
    default:
      return { health: 'unknown', status: phase, ready: false };
  }
}

/** desired vs ready replicas, with the conditions a controller reports */
function replicas(desired: number, readyCount: number, failed?: any): Derived {
  if (failed) return { health: 'unhealthy', status: failed.reason ?? 'Failed', ready: false };
  if (desired === 0) return { health: 'healthy', status: 'Scaled to 0', ready: true };
  if (readyCount >= desired) return { health: 'healthy', status: 'Running', ready: true };
  if (readyCount === 0) return { health: 'unhealthy', status: `0/${desired} ready`, ready: false };
  return { health: 'warning', status: `${readyCount}/${desired} ready`, ready: false };
}

export function deriveHealth(kind: string, obj: any): Derived {
  const st = obj?.status ?? {};
  const spec = obj?.spec ?? {};
  switch (kind) {
    case 'Pod':
      return pod(obj);
    case 'Deployment': {
      const available = condition(obj, 'Available');
      const progressing = condition(obj, 'Progressing');
      const failed =
        progressing?.status === 'False'
          ? progressing
          : available?.status === 'False' && (st.readyReplicas ?? 0) === 0 && (spec.replicas ?? 1) > 0
            ? available
            : undefined;
      return replicas(spec.replicas ?? 1, st.readyReplicas ?? 0, failed);
    }
    case 'StatefulSet':
    case 'ReplicaSet':
      return replicas(spec.replicas ?? 1, st.readyReplicas ?? 0);
    case 'DaemonSet':
      return replicas(st.desiredNumberScheduled ?? 0, st.numberReady ?? 0);
    case 'Job': {
      const failed = condition(obj, 'Failed');
      if (failed?.status === 'True') return { health: 'unhealthy', status: failed.reason ?? 'Failed', ready: false };
      if (condition(obj, 'Complete')?.status === 'True') return { health: 'healthy', status: 'Completed', ready: true };
      if (spec.suspend) return { health: 'unknown', status: 'Suspended', ready: false };
      return { health: 'healthy', status: (st.active ?? 0) > 0 ? 'Running' : 'Pending', ready: false };
    }
    case 'CronJob':
      if (spec.suspend) return { health: 'unknown', status: 'Suspended', ready: false };
      return { health: 'healthy', status: (st.active ?? []).length ? 'Running' : 'Scheduled', ready: true };
    case 'Node': {
      const ready = condition(obj, 'Ready');
      if (!ready || ready.status === 'Unknown') return { health: 'unknown', status: 'Unknown', ready: false };
      if (ready.status !== 'True') return { health: 'unhealthy', status: 'NotReady', ready: false };
      const pressure = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'].find(
        (t) => condition(obj, t)?.status === 'True',
      );
      if (pressure) return { health: 'warning', status: pressure, ready: true };
      if (spec.unschedulable) return { health: 'warning', status: 'SchedulingDisabled', ready: true };
      return { health: 'healthy', status: 'Ready', ready: true };
    }
    case 'Namespace':
      return st.phase === 'Terminating'
        ? { health: 'warning', status: 'Terminating', ready: false }
        : { health: 'healthy', status: st.phase ?? 'Active', ready: true };
    case 'Service':
      if (spec.type === 'LoadBalancer' && !(st.loadBalancer?.ingress ?? []).length)
        return { health: 'warning', status: 'Pending', ready: false };
      return { health: 'healthy', status: spec.type ?? 'ClusterIP', ready: true };
    case 'Ingress':
      return (st.loadBalancer?.ingress ?? []).length
        ? { health: 'healthy', status: 'Ready', ready: true }
        : { health: 'unknown', status: 'Pending', ready: false };
    case 'ConfigMap':
      return { health: 'healthy', status: 'Active', ready: true };
    default:
      return { health: 'unknown', ready: false };
  }
}
