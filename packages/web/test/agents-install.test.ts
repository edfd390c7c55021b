// The installation instructions against the chart they point at (deploy/helm/watchdeck): every
// value the Helm command sets and the Flux HelmRelease passes is one values.yaml has (Helm would
// take an unknown one silently and the chart would ignore it). No Helm runs here.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { installVariants } from '../src/features/agents/components/install-instructions.ts';

const ROOT = join(import.meta.dirname, '../../..');
const CHART = join(ROOT, 'deploy/helm/watchdeck');
const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;

const has = (path: string[]) => {
  let at: unknown = values;
  for (const key of path) {
    if (!at || typeof at !== 'object' || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
};
/** Every leaf path of an object, e.g. ['upstream', 'url']. */
const leaves = (o: Record<string, unknown>, at: string[] = []): string[][] =>
  Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? leaves(v as Record<string, unknown>, [...at, k]) : [[...at, k]],
  );

describe('installation instructions and the Helm chart', () => {
  const variants = installVariants({
    upstream: 'https://watchdeck.example.com',
    token: 'wdpat_example',
    name: 'eu-prod',
    form: { kubernetes: { enabled: true, interval: '1h' }, pushTelemetry: { enabled: true, topologyName: 'eu' } },
  });

  it('points the Helm command at the chart and sets only values the chart has', () => {
    const helm = variants.find((v) => v.id === 'helm')!.text;
    const path = /helm upgrade --install \S+ (\S+)/.exec(helm)![1];
    expect(existsSync(join(ROOT, path, 'Chart.yaml'))).toBe(true);
    const sets = [...helm.matchAll(/--set ([\w.]+)=/g)].map((m) => m[1]);
    expect(sets.length).toBeGreaterThan(5);
    expect(sets.filter((s) => !has(s.split('.')))).toEqual([]);
  });

  it("passes only values the chart has in Flux's HelmRelease", () => {
    const flux = variants.find((v) => v.id === 'flux')!.text;
    const docs = parseAllDocuments(flux).map(
      (d) =>
        d.toJS() as { kind?: string; spec: { chart: { spec: { chart: string } }; values: Record<string, unknown> } },
    );
    const release = docs.find((d) => d.kind === 'HelmRelease')!;
    expect(existsSync(join(ROOT, release.spec.chart.spec.chart, 'Chart.yaml'))).toBe(true);
    const passed = leaves(release.spec.values);
    expect(passed.length).toBeGreaterThan(5);
    expect(passed.filter((p) => !has(p)).map((p) => p.join('.'))).toEqual([]);
  });
});
