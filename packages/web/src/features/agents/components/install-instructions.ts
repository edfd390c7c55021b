/**
 * The installation instructions of a new agent (seed 000 section 4): Helm and Flux variants, plus
 * a command line. Each carries the agent's token; the upstream is this console's own address.
 */
import { agentCommandLine, type AgentForm } from '@watchdeck/core';

export interface InstallVariant {
  id: 'helm' | 'flux' | 'cli';
  label: string;
  language: 'shell' | 'yaml';
  text: string;
}

/** A value safe inside single quotes in a shell command. */
const sq = (s: string) => `'${s.replaceAll("'", `'"'"'`)}'`;
/** A value safe as a YAML double-quoted scalar. */
const dq = (s: string) => JSON.stringify(s);

export function installVariants(opts: {
  upstream: string;
  token: string;
  name: string;
  form: Pick<AgentForm, 'kubernetes' | 'pushTelemetry'>;
}): InstallVariant[] {
  const { upstream, token, name, form } = opts;
  const topology = form.pushTelemetry.enabled ? (form.pushTelemetry.topologyName ?? name) : '';
  const helmSets = [
    `--set mode=agent`,
    `--set upstream.url=${sq(upstream)}`,
    `--set upstream.token=${sq(token)}`,
    `--set agent.name=${sq(name)}`,
    `--set kubernetes.enabled=${form.kubernetes.enabled}`,
    `--set kubernetes.interval=${form.kubernetes.interval}`,
    `--set pushTelemetry.enabled=${form.pushTelemetry.enabled}`,
    ...(topology ? [`--set pushTelemetry.topologyName=${sq(topology)}`] : []),
  ];
  const helm = [
    `helm upgrade --install watchdeck-agent ./deploy/helm/watchdeck \\`,
    `  --namespace watchdeck --create-namespace \\`,
    ...helmSets.map((s, i) => `  ${s}${i < helmSets.length - 1 ? ' \\' : ''}`),
  ].join('\n');
  const flux = `apiVersion: v1
kind: Namespace
metadata:
  name: watchdeck
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: watchdeck
  namespace: watchdeck
spec:
  interval: 1h
  url: https://github.com/watchdeck/watchdeck
  ref:
    branch: main
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: watchdeck-agent
  namespace: watchdeck
spec:
  interval: 10m
  chart:
    spec:
      chart: ./deploy/helm/watchdeck
      sourceRef:
        kind: GitRepository
        name: watchdeck
  values:
    mode: agent
    upstream:
      url: ${dq(upstream)}
      token: ${dq(token)}
    agent:
      name: ${dq(name)}
    kubernetes:
      enabled: ${form.kubernetes.enabled}
      interval: ${dq(form.kubernetes.interval)}
    pushTelemetry:
      enabled: ${form.pushTelemetry.enabled}${topology ? `\n      topologyName: ${dq(topology)}` : ''}
`;
  const cli = agentCommandLine({ upstream, token });
  return [
    { id: 'helm', label: 'Helm', language: 'shell', text: helm },
    { id: 'flux', label: 'Flux', language: 'yaml', text: flux },
    { id: 'cli', label: 'Command line', language: 'shell', text: cli },
  ];
}
