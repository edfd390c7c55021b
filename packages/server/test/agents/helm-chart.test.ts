import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { agentArgs } from '#server/agents/cli.ts';
import { loadConfig } from '#server/config.ts';

/**
 * What can be checked of deploy/helm/watchdeck without Helm (none is reachable here, and none is
 * downloaded): the chart's metadata, that values.yaml parses, that the templates name only values
 * that exist and only the template functions listed below, that their blocks close, that they use
 * no `.Values` inside a `with` (where `.` is no longer the root), and that what the container runs
 * (the bin, its commands, the environment it sets) is what this server reads. The templates are
 * NOT rendered: no Go-template evaluator stands in for Helm (deploy/helm/watchdeck/README.md).
 */
const CHART = join(import.meta.dirname, '../../../../deploy/helm/watchdeck');
const ROOT = join(CHART, '../../..');
const templates = readdirSync(join(CHART, 'templates'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ file: f, text: readFileSync(join(CHART, 'templates', f), 'utf8') }));
const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;
/** Go-template actions of a text, without their delimiters and trim markers. */
const actions = (text: string) => [...text.matchAll(/{{-?\s*([\s\S]*?)\s*-?}}/g)].map((m) => m[1]);
/** Helm and sprig functions, and template keywords, the templates may use (all exist in Helm 3). */
const KNOWN = new Set([
  'if',
  'else',
  'end',
  'with',
  'range',
  'and',
  'or',
  'not',
  'eq',
  'ne',
  'required',
  'quote',
  'default',
  'printf',
  'toYaml',
  'nindent',
  'indent',
  'trim',
]);

describe('the Helm chart, checked without Helm', () => {
  it('has the metadata Helm 3 requires, named as its directory', () => {
    const chart = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
    expect(chart.apiVersion).toBe('v2');
    expect(chart.name).toBe('watchdeck');
    expect(chart.type).toBe('application');
    expect(String(chart.version)).toMatch(/^\d+\.\d+\.\d+$/);
    // the image tag defaults to appVersion: the version this repository is at
    const pkg = JSON.parse(readFileSync(join(ROOT, 'packages/server/package.json'), 'utf8')) as { version: string };
    expect(chart.appVersion).toBe(pkg.version);
  });

  it('names only values that values.yaml has', () => {
    const missing: string[] = [];
    for (const t of templates)
      for (const m of t.text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
        let at: unknown = values;
        for (const key of m[1].slice(1).split('.')) {
          if (!at || typeof at !== 'object' || !(key in at)) {
            missing.push(`${t.file}: .Values${m[1]}`);
            break;
          }
          at = (at as Record<string, unknown>)[key];
        }
      }
    expect(missing).toEqual([]);
    expect(['agent', 'serve']).toContain(values.mode);
  });

  it('uses only known functions, closes every block, and keeps .Values out of with blocks', () => {
    for (const t of templates) {
      let depth = 0;
      let withDepth = 0;
      const opened: string[] = [];
      for (const a of actions(t.text)) {
        const code = a.replace(/"(?:[^"\\]|\\.)*"/g, '""');
        for (const m of code.matchAll(/(^|[^.$\w])([A-Za-z]\w*)/g))
          expect(KNOWN.has(m[2]), `${t.file}: unknown function or keyword ${m[2]} in {{ ${a} }}`).toBe(true);
        const first = code.split(/\s+/)[0];
        if (['if', 'with', 'range'].includes(first)) {
          depth++;
          opened.push(first);
          if (first === 'with') withDepth++;
        } else if (first === 'end') {
          depth--;
          if (opened.pop() === 'with') withDepth--;
        } else if (withDepth > 0)
          expect(code, `${t.file}: {{ ${a} }} inside a with block`).not.toMatch(/(^|[^$])\.(Values|Release|Chart)\b/);
        expect(depth, `${t.file}: an end without a block`).toBeGreaterThanOrEqual(0);
      }
      expect(depth, `${t.file}: a block left open`).toBe(0);
    }
  });

  it('runs what this repository has, with the environment this server reads', () => {
    const deployment = templates.find((t) => t.file === 'deployment.yaml')!.text;
    expect(deployment).toContain('workingDir: /app');
    expect(deployment).toContain('command: ["node", "packages/server/bin/watchdeck.mjs", {{ .Values.mode | quote }}]');
    expect(existsSync(join(ROOT, 'packages/server/bin/watchdeck.mjs'))).toBe(true);
    const env = [...deployment.matchAll(/- name: (WATCHDECK_[A-Z_]+)/g)].map((m) => m[1]).sort();
    expect(env).toEqual(['WATCHDECK_AGENT_TOKEN', 'WATCHDECK_DATA_DIR', 'WATCHDECK_DEMO_DATA', 'WATCHDECK_UPSTREAM']);
    // the values the chart sets are ones the server takes
    const config = loadConfig({ WATCHDECK_DATA_DIR: '/data', WATCHDECK_DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    expect(config.dataDir).toBe('/data');
    expect(config.demoData).toBe(false);
    expect(agentArgs([], { WATCHDECK_UPSTREAM: 'https://up.example', WATCHDECK_AGENT_TOKEN: 'wdpat_x' })).toMatchObject(
      { upstream: 'https://up.example/', token: 'wdpat_x' },
    );
  });
});
