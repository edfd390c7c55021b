import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freshPostgresDb, percentile, startServer } from '../support.ts';
import type { Scenario } from './index.ts';

const run = promisify(execFile);

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const APPLIED = 1000;
const LISTED = 5000;

/**
 * Issue 22: `kubectl apply -f` of a directory of 1,000 canaries in under 30 s, then
 * `kubectl get canaries` over 5,000 in under 1 s (the whole kubectl process, its paged requests
 * included; median of 5). The server runs with AUTH=none: kubectl sends a token only over HTTPS,
 * and a TLS front would measure itself.
 */
export const kubeApplyAndList: Scenario = {
  name: `kubectl apply of ${APPLIED} canaries; kubectl get over ${LISTED}`,
  async run() {
    const bench = await freshPostgresDb();
    const dir = mkdtempSync(join(tmpdir(), 'watchdeck-bench-kube-'));
    const server = await startServer(bench, { AUTH: 'none' });
    try {
      const kubeconfig = join(dir, 'kubeconfig.yaml');
      writeFileSync(
        kubeconfig,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters: [{name: bench, cluster: {server: "' + server.url + '/k8s"}}]',
          'users: [{name: bench, user: {}}]',
          'contexts: [{name: bench, context: {cluster: bench, user: bench, namespace: default}}]',
          'current-context: bench',
        ].join('\n'),
      );
      const repo = join(dir, 'repo');
      mkdirSync(repo);
      for (let f = 0; f < 10; f++) {
        const docs = [];
        for (let i = 0; i < APPLIED / 10; i++) {
          const n = f * (APPLIED / 10) + i;
          docs.push(
            `apiVersion: watchdeck.io/v1\nkind: Canary\nmetadata:\n  name: bench-${n}\n  labels: {shard: "s${f}"}\nspec:\n  schedule: "@every 5m"\n  http:\n    - name: c${n}\n      url: https://example.invalid/${n}\n`,
          );
        }
        writeFileSync(join(repo, `canaries-${f}.yaml`), docs.join('---\n'));
      }
      const env = { ...process.env, KUBECONFIG: kubeconfig, HOME: dir };
      // kubectl under GNU time: its own CPU seconds (user + system, children included) on stderr
      let kubectlCpu = 0;
      const kubectl = async (...args: string[]) => {
        const r = await run('/usr/bin/time', ['-f', 'cpu=%U+%S', 'kubectl', ...args], {
          env,
          maxBuffer: 256 * 1024 * 1024,
        });
        const m = /cpu=([\d.]+)\+([\d.]+)/.exec(r.stderr);
        kubectlCpu = m ? Number(m[1]) + Number(m[2]) : NaN;
        return r;
      };

      const cpu0 = cpuSeconds(server.pid);
      const started = performance.now();
      const applied = await kubectl('apply', '-f', repo);
      const applySeconds = (performance.now() - started) / 1000;
      const applyServerCpu = cpuSeconds(server.pid) - cpu0;
      const applyKubectlCpu = kubectlCpu;
      const created = applied.stdout.split('\n').filter((l) => l.endsWith(' created')).length;

      await bench.db.query(
        `INSERT INTO canaries (name, namespace, spec, source)
         SELECT 'sql-' || g, 'default', '{"http": [{"name": "x", "url": "https://example.invalid"}]}', 'kubectl'
           FROM generate_series(1, $1) g`,
        [LISTED - APPLIED],
      );
      const times: number[] = [];
      const getKubectlCpu: number[] = [];
      let rows = 0;
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const listed = await kubectl('get', 'canaries', '--no-headers');
        times.push(performance.now() - t);
        rows = listed.stdout.trim().split('\n').length;
        getKubectlCpu.push(kubectlCpu);
      }
      const p50 = percentile(times, 50);
      return {
        driver: 'pg',
        result: `apply: ${created}/${APPLIED} created in ${applySeconds.toFixed(1)} s (CPU: server ${applyServerCpu.toFixed(1)} s, kubectl ${applyKubectlCpu.toFixed(1)} s); get: ${rows} rows, p50 ${p50.toFixed(0)} ms, worst ${Math.max(...times).toFixed(0)} ms (kubectl CPU p50 ${(percentile(getKubectlCpu, 50) * 1000).toFixed(0)} ms)`,
        target: `apply < 30 s; get < 1 s`,
        met: created === APPLIED && applySeconds < 30 && rows === LISTED && p50 < 1000 ? 'yes' : 'no',
      };
    } finally {
      await server.stop();
      await bench.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
