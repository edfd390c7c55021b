import type { ConnectionResolver } from '../connections.ts';
import type { Sandbox } from '#server/sandbox/index.ts';

/**
 * What every check type implements. A runner does the real work (an HTTP request, a query, a
 * ping) and says whether it passed. It throws, or returns pass: false with an error, when the
 * check failed; the message is what the person looking at the dashboard needs to act on.
 * The engine measures the duration, applies the timeout, evaluates the CEL `test` and `display`
 * over `vars`, and records the result.
 */
export interface CheckContext {
  /** aborted when the check's timeout passes: runners stop their I/O */
  signal: AbortSignal;
  timeoutMs: number;
  connections: ConnectionResolver;
  /** runs exec checks' scripts isolated from the server */
  sandbox: Sandbox;
}

export interface CheckOutcome {
  pass: boolean;
  /** shown in History's Message column (what was observed) */
  message?: string;
  /** why it failed */
  error?: string;
  /** the variables the spec's `test` and `display` expressions see */
  vars?: Record<string, unknown>;
  /** kept in check_statuses.detail */
  detail?: Record<string, unknown>;
  /**
   * Checks discovered by this run (alertmanager: one per firing alert). Each becomes a check of
   * the canary with its own row and history.
   */
  children?: ChildOutcome[];
}

export interface ChildOutcome {
  name: string;
  pass: boolean;
  message?: string;
  error?: string;
  labels?: Record<string, string>;
  description?: string;
}

export type CheckRunner = (spec: Record<string, unknown>, ctx: CheckContext) => Promise<CheckOutcome>;

/** Spec helpers shared by the runners. */
export function str(spec: Record<string, unknown>, key: string): string | undefined {
  const v = spec[key];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

export function num(spec: Record<string, unknown>, key: string): number | undefined {
  const v = spec[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** A value or {value} (seed 002 "Secret-or-value input"); references to Kubernetes secrets cannot be read here. */
export function secretOrValue(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.value === 'string') return o.value;
    if (o.valueFrom) {
      throw new Error(
        `${field} comes from a Kubernetes secret or config map; this server cannot read those, so give the value or use a connection`,
      );
    }
  }
  return undefined;
}

/** "host:port" -> parts; the port is required. */
export function hostPort(endpoint: string, field = 'endpoint'): { host: string; port: number } {
  const text = endpoint.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(text);
  if (!m) throw new Error(`${field} "${endpoint}" must be host:port`);
  const port = Number(m[2]);
  if (port < 1 || port > 65535) throw new Error(`${field} "${endpoint}" has an invalid port`);
  return { host: m[1], port };
}

/** Rejects with a clear message when the signal aborts (the engine's timeout). */
export function abortable<T>(p: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort?.();
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(e as Error);
      },
    );
  });
}
