import { stringify } from 'yaml';
import { GITOPS_DEFAULT_INTERVAL, HELM_REPO_NAME, HELM_REPO_URL } from './options.ts';

/**
 * What the GitOps options generate from the form: Flux manifests (a HelmRepository and a
 * HelmRelease carrying the values) and the equivalent Helm command. Pure functions of the form
 * values, so the two tabs always show the same installation.
 */
export interface InstallSpec {
  chart: string;
  /** the chart version from its metadata; omitted (latest) when the registry could not be read */
  version?: string;
  namespace: string;
  interval?: string;
  values: Record<string, unknown>;
}

export function fluxManifests(s: InstallSpec): string {
  const interval = s.interval || GITOPS_DEFAULT_INTERVAL;
  const repository = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmRepository',
    metadata: { name: HELM_REPO_NAME, namespace: s.namespace },
    spec: { interval, url: HELM_REPO_URL },
  };
  const release = {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: s.chart, namespace: s.namespace },
    spec: {
      interval,
      chart: {
        spec: {
          chart: s.chart,
          ...(s.version ? { version: s.version } : {}),
          sourceRef: { kind: 'HelmRepository', name: HELM_REPO_NAME, namespace: s.namespace },
        },
      },
      ...(Object.keys(s.values).length ? { values: s.values } : {}),
    },
  };
  return `${stringify(repository)}---\n${stringify(release)}`;
}

/** Quotes a word for a POSIX shell. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** key paths and leaf values for --set: a.b=1, list[0]=x; commas and dots in keys escaped as Helm wants. */
export function helmSetArgs(values: Record<string, unknown>): string[] {
  const out: string[] = [];
  const key = (k: string) => k.replace(/([.,=\\])/g, '\\$1');
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(`${path}={}`);
      v.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (const [k, child] of entries) walk(child, path ? `${path}.${key(k)}` : key(k));
    } else {
      const text = v === null || v === undefined ? 'null' : String(v).replace(/([,\\])/g, '\\$1');
      out.push(`${path}=${text}`);
    }
  };
  walk(values, '');
  return out;
}

export function helmCommand(s: InstallSpec): string {
  const lines = [
    `helm repo add ${HELM_REPO_NAME} ${HELM_REPO_URL}`,
    'helm repo update',
    [
      `helm install ${shellQuote(s.chart)} ${HELM_REPO_NAME}/${shellQuote(s.chart)}`,
      `  -n ${shellQuote(s.namespace)} --create-namespace`,
      ...(s.version ? [`  --version ${shellQuote(s.version)}`] : []),
      ...helmSetArgs(s.values).map((a) => `  --set ${shellQuote(a)}`),
    ].join(' \\\n'),
  ];
  return lines.join('\n');
}
