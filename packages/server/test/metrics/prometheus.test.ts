/**
 * A real Prometheus (Debian's `prometheus`) scrapes the app's /metrics every second with the
 * bearer token while a failing check runs on its schedule; the test then asks Prometheus's HTTP
 * API for the check latency histogram and the event backlog, as a dashboard or an alert would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

const PROMETHEUS = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((p) => existsSync(p));
const TOKEN = 'prometheus-scrape-token-42';

if (!PROMETHEUS) console.warn('skipping the Prometheus scrape test: no prometheus binary (apt-get install prometheus)');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Vector {
  metric: Record<string, string>;
  value: [number, string];
}

for (const driver of testDrivers()) {
  describe.skipIf(!PROMETHEUS)(`a real Prometheus scrapes /metrics (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let app: Awaited<ReturnType<typeof startApp>>;
    let prom: ChildProcess | undefined;
    let promUrl = '';
    let dir = '';
    let promLog = '';

    beforeAll(async () => {
      db = await driver.open();
      // not even loopback may scrape without the token: Prometheus must send it
      app = await startApp(db, {
        authMode: 'none',
        metrics: { enabled: true, allow: [], token: TOKEN, checkLabelKeys: 10 },
      });
      dir = mkdtempSync(join(tmpdir(), 'watchdeck-prometheus-'));
      const target = new URL(app.url).host;
      writeFileSync(
        join(dir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          '  evaluation_interval: 1s',
          'scrape_configs:',
          '  - job_name: watchdeck',
          '    scrape_interval: 1s',
          '    scrape_timeout: 1s',
          '    metrics_path: /metrics',
          '    authorization:',
          '      type: Bearer',
          `      credentials: ${TOKEN}`,
          '    static_configs:',
          `      - targets: ['${target}']`,
          '',
        ].join('\n'),
      );
      const port = await freePort();
      promUrl = `http://127.0.0.1:${port}`;
      prom = spawn(
        PROMETHEUS!,
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prom.stdout!.on('data', (d) => (promLog += d));
      prom.stderr!.on('data', (d) => (promLog += d));
    });
    afterAll(async () => {
      if (prom && prom.exitCode === null) {
        const exited = new Promise((r) => prom!.once('exit', r));
        prom.kill('SIGTERM');
        await exited;
      }
      await app?.app.close();
      await db?.dispose();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** Polls an instant query until `ok` holds for its result (or the deadline passes). */
    async function query(expr: string, ok: (v: Vector[]) => boolean, timeoutMs = 30_000): Promise<Vector[]> {
      const deadline = Date.now() + timeoutMs;
      let last: Vector[] = [];
      while (Date.now() < deadline) {
        const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`).catch(() => undefined);
        if (res?.ok) {
          const body = (await res.json()) as { status: string; data: { result: Vector[] } };
          last = body.data.result;
          if (ok(last)) return last;
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`${expr}: ${JSON.stringify(last)}\n${promLog.slice(-2000)}`);
    }

    it('sees a failing check’s latency histogram and the event backlog', async () => {
      const closed = await freePort();
      await app.app.engines.start();
      const created = await fetch(`${app.url}/api/db/canaries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.url },
        body: JSON.stringify({
          name: 'prometheus-canary',
          namespace: 'ops',
          labels: { team: 'sre' },
          schedule: '@every 1s',
          spec: { tcp: [{ name: 'closed-port', endpoint: `127.0.0.1:${closed}`, timeout: '1s' }] },
        }),
      });
      expect(created.status).toBe(201);
      // the incidents consumer stops: the check's failure event stays in the backlog
      await app.app.engines.queue.stop();

      const up = await query('up{job="watchdeck"}', (v) => v[0]?.value[1] === '1');
      expect(up).toHaveLength(1);
      const runs = await query(
        'watchdeck_check_runs_total{type="tcp",result="fail"}',
        (v) => Number(v[0]?.value[1]) >= 2,
      );
      expect(runs[0].metric).toMatchObject({ job: 'watchdeck', type: 'tcp', result: 'fail' });
      const p50 = await query(
        'histogram_quantile(0.5, sum by (le) (watchdeck_check_duration_seconds_bucket{type="tcp"}))',
        (v) => v.length === 1 && Number.isFinite(Number(v[0].value[1])),
      );
      // a refused connection: well under the 1 s timeout
      expect(Number(p50[0].value[1])).toBeGreaterThanOrEqual(0);
      expect(Number(p50[0].value[1])).toBeLessThan(1);
      const backlog = await query(
        'watchdeck_event_backlog{event="check.failed",consumer="incidents"}',
        (v) => v[0]?.value[1] === '1',
      );
      expect(backlog[0].metric).toMatchObject({ event: 'check.failed', consumer: 'incidents' });
      const healthy = await query(
        'watchdeck_check_healthy{name="closed-port",namespace="ops",canary="prometheus-canary"}',
        (v) => v.length === 1,
      );
      expect(healthy[0]).toMatchObject({ metric: { label_team: 'sre' }, value: [expect.any(Number), '0'] });
    }, 90_000);
  });
}
